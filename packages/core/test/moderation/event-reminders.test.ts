import { afterAll, beforeAll, expect, it } from "vitest"
import { startSmtp } from "../../../../testing/smtp"
import type { Roda } from "../../src/index"
import { controlledClock, runJobs } from "../commerce/subscriptions-support"
import { as } from "../support/community"
import { expectOk } from "../support/envelope"
import { createEvent, type EventCommunity, eventCommunity } from "../support/events"
import { type Client, client, startRoda } from "../support/harness"
import { query } from "../support/sql"

/**
 * Issue 56: what an event's participants hear once a moderator acts on it. A hidden event sends no
 * reminders (its participants no longer read it); a removed one e-mails its cancellation, as its
 * host's removal does. Time is the test's: reminders are jobs run with `runJobs`.
 */
const HOUR = 3_600_000
const START = Date.UTC(2030, 4, 1, 19, 0, 0) // the events' default start (support/events.ts)
const NOW = Date.UTC(2030, 3, 28, 12, 0, 0)
const time = controlledClock(NOW)
let smtp: Awaited<ReturnType<typeof startSmtp>>
let roda: Roda
let api: Client

type Person = { token: string; profileId: string; email: string }
let setup: EventCommunity
let going: Person
let reporter: Person
let moderator: Person
beforeAll(async () => {
  smtp = await startSmtp()
  roda = startRoda({ runJobs: false, smtpUrl: smtp.url }, { clock: time.clock })
  api = client(roda)
  setup = await eventCommunity(api, "Avisos moderados")
  going = await setup.addMember("member", "Pessoa Indo")
  reporter = await setup.addMember("member", "Pessoa Denunciante")
  moderator = await setup.addMember("moderator", "Pessoa Moderadora")
}, 120_000)
afterAll(async () => {
  await roda.dispose()
  await smtp.close()
})

const mailsOf = async (person: Person, kind: string, title: string) =>
  (await query<{ subject: string }>(
    roda,
    (sql) =>
      sql`SELECT subject FROM outbox WHERE lower(recipient) = lower(${person.email}) AND kind = ${kind}
        ORDER BY created_at, id`
  )).map((mail) => mail.subject).filter((subject) => subject.includes(title))

const moderate = async (eventId: string, action: "hide" | "remove") => {
  const reported = await api.post("/api/reports", {
    subjectType: "event",
    subjectId: eventId,
    reason: "spam"
  }, as(reporter, setup.community))
  const caseId = expectOk(reported, 201).caseId
  expectOk(await api.post(`/api/moderation/cases/${caseId}/resolve`, { action }, as(moderator, setup.community)))
}

it("a hidden event sends no reminders; a visible one does", async () => {
  const hidden = await createEvent(api, setup, { title: "Escondido" })
  const shown = await createEvent(api, setup, { title: "Visível" })
  for (const event of [hidden, shown]) {
    expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, as(going, setup.community)))
  }
  await moderate(hidden.id, "hide")
  time.set(START - 24 * HOUR + 1000)
  await runJobs(roda)
  expect(await mailsOf(going, "event-reminder", "Visível")).toHaveLength(1)
  expect(await mailsOf(going, "event-reminder", "Escondido")).toHaveLength(0)
  time.set(NOW)
})

it("a removed event e-mails its participants going that it is canceled, and sends no reminders", async () => {
  const event = await createEvent(api, setup, { title: "Removido" })
  expectOk(await api.post(`/api/events/${event.id}/participate`, undefined, as(going, setup.community)))
  await moderate(event.id, "remove")
  expect(await mailsOf(going, "event-canceled", "Removido")).toEqual(["Evento cancelado: Removido"])
  time.set(START - HOUR + 1000)
  await runJobs(roda)
  expect(await mailsOf(going, "event-reminder", "Removido")).toHaveLength(0)
  time.set(NOW)
})
