import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSmtp } from "../../../../testing/smtp"
import type { Roda } from "../../src/index"
import { Jobs } from "../../src/platform/Jobs"
import { controlledClock } from "../commerce/subscriptions-support"
import { type SocialCommunity, socialCommunity } from "../social/setup"
import { as } from "../support/community"
import { courseCommunity, createCourse, createLesson, createModule, publish } from "../support/courses"
import { expectOk } from "../support/envelope"
import { createEvent, eventCommunity } from "../support/events"
import { type Client, client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { query } from "../support/sql"
import { createSection, createSpace } from "../support/structure"
import { inbox, postStatus } from "./setup"

/** Issue 55: the producers of `reaction`, `event_reminder`, `event_changed` and `course_update`. */
const HOUR = 3_600_000
const NOW = Date.UTC(2030, 3, 28, 12, 0, 0)
const START = Date.UTC(2030, 4, 1, 19, 0, 0) // the events' default start (support/events.ts)
const time = controlledClock(NOW)
let smtp: Awaited<ReturnType<typeof startSmtp>>
let roda: Roda
let api: Client

type Person = { token: string; profileId: string; email: string }
type Place = { readonly community: { readonly id: string } }
let social: SocialCommunity
let events: Awaited<ReturnType<typeof eventCommunity>>
let courses: Awaited<ReturnType<typeof courseCommunity>>
beforeAll(async () => {
  smtp = await startSmtp()
  roda = startRoda({ runJobs: false, smtpUrl: smtp.url }, { clock: time.clock })
  api = client(roda)
  social = await socialCommunity(api, "Reações")
  events = await eventCommunity(api, "Avisos de eventos")
  courses = await courseCommunity(api, "Aulas novas")
}, 120_000)
afterAll(async () => {
  await roda.dispose()
  await smtp.close()
})

/** Runs the due jobs of these kinds only (on a shared PostgreSQL, other suites' jobs are theirs to run). */
const runJobs = async (...kinds: ReadonlyArray<string>) => {
  const round = () => roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) => jobs.runDue({ limit: 100, kinds })))
  for (let ran = await round(); ran > 0; ran = await round()) continue
}

const summary = (items: Array<any>) => items.map((n) => [n.kind, n.actor?.fullName ?? null, n.subject])

describe("reaction", () => {
  const react = async (place: Place, user: Person, path: string, type = "like") =>
    expectOk(await api.post(`${path}/react`, { type }, as(user, place.community)))

  it("tells the author once per post and hour, whoever reacts; never of their own reaction", async () => {
    const [ines, joao, kai] = [
      await social.addMember("member", "Inês Autora"),
      await social.addMember("member", "João Reage"),
      await social.addMember("member", "Kai Reage")
    ]
    const statusId = await postStatus(api, social, ines, "Bom dia, comunidade")
    const path = `/api/status/${statusId}`
    await react(social, ines, path)
    expect(await inbox(api, social, ines)).toEqual([])
    await react(social, joao, path)
    await react(social, kai, path, "love")
    await react(social, joao, path, "funny") // a change within the hour
    const subject = { type: "status", id: statusId, title: "Bom dia, comunidade" }
    expect(summary(await inbox(api, social, ines))).toEqual([["reaction", "João Reage", subject]])
    expect((await inbox(api, social, ines))[0].text).toBe("João Reage reagiu a “Bom dia, comunidade”.")
    time.set(NOW + HOUR)
    await react(social, kai, path, "celebrate")
    await react(social, joao, path, "insightful")
    expect(summary(await inbox(api, social, ines))).toEqual([
      ["reaction", "Kai Reage", subject],
      ["reaction", "João Reage", subject]
    ])
    // one per post: another post of hers in the same hour is told apart
    const otherId = await postStatus(api, social, ines, "Boa noite")
    time.set(NOW + HOUR + 60_000)
    await react(social, joao, `/api/status/${otherId}`)
    expect((await inbox(api, social, ines)).map((n) => n.subject.id)).toEqual([otherId, statusId, statusId])
    // taking a reaction back tells nobody
    await react(social, joao, `/api/status/${otherId}`)
    expect(await inbox(api, social, ines)).toHaveLength(3)
    time.set(NOW)
  })

  it("a reaction to a comment tells its author, about the post it is on, titled with the comment", async () => {
    const [lia, mo] = [await social.addMember("member", "Lia Comenta"), await social.addMember("member", "Mo Reage")]
    const statusId = await postStatus(api, social, mo, "Pergunta")
    const comment = expectOk(
      await api.post(`/api/status/${statusId}/comment`, { body: "Minha resposta" }, as(lia, social.community)),
      201
    ) as { id: string }
    await react(social, mo, `/api/status/${statusId}/comment/${comment.id}`)
    expect(summary(await inbox(api, social, lia))).toEqual([
      ["reaction", "Mo Reage", { type: "status", id: statusId, title: "Minha resposta" }]
    ])
  })

  it("a reaction to a content post tells its author with the post's title", async () => {
    const section = await createSection(api, social, { visibility: "public" })
    const space = await createSpace(api, social, section.id, { module: "feed", visibility: "public" })
    const [nina, olavo] = [
      await social.addMember("member", "Nina Escreve"),
      await social.addMember("member", "Olavo Reage")
    ]
    const content = expectOk(
      await api.post("/api/content", { spaceId: space.id, title: "Guia", body: "Texto" }, as(nina, social.community)),
      201
    ) as { id: string }
    await react(social, olavo, `/api/feed/content/${content.id}`, "love")
    expect(summary(await inbox(api, social, nina))).toEqual([
      ["reaction", "Olavo Reage", { type: "content", id: content.id, title: "Guia" }]
    ])
  })
})

describe("event_changed and event_reminder", () => {
  const owner = () => as(events.owner, events.community)
  const participate = async (eventId: string, person: Person) =>
    expectOk(await api.post(`/api/events/${eventId}/participate`, undefined, as(person, events.community)))
  const mails = async (person: Person, kind: string) =>
    (await outboxFor(roda, person.email)).filter((mail) => mail.kind === kind)
  const emailOff = async (person: Person, kind: string) =>
    expectOk(await api.put("/api/notification-preferences", { [kind]: { email: "off" } }, as(person, events.community)))

  it("a change of time or place, and a cancellation, tell those going; e-mail `off` stops the e-mail only", async () => {
    const [ana, beto, caio] = [
      await events.addMember("member", "Ana Vai"),
      await events.addMember("member", "Beto Sem E-mail"),
      await events.addMember("member", "Caio Não Vai")
    ]
    await emailOff(beto, "event_changed")
    const event = await createEvent(api, events, { title: "Encontro" })
    await participate(event.id, ana)
    await participate(event.id, beto)
    // a title change is no change of time or place
    expectOk(await api.put(`/api/events/${event.id}`, { title: "Encontro!" }, owner()))
    expect(await inbox(api, events, ana)).toEqual([])
    const later = START + 2 * 24 * HOUR
    expectOk(
      await api.put(
        `/api/events/${event.id}`,
        { startTime: new Date(later).toISOString(), endTime: new Date(later + 2 * HOUR).toISOString() },
        owner()
      )
    )
    const subject = { type: "event", id: event.id, title: "Encontro!" }
    for (const person of [ana, beto]) {
      expect(summary(await inbox(api, events, person))).toEqual([["event_changed", null, subject]])
    }
    expect((await inbox(api, events, ana))[0].text).toBe("“Encontro!” mudou.")
    expect((await mails(ana, "event-changed")).map((mail) => mail.subject)).toEqual(["Evento alterado: Encontro!"])
    expect(await mails(beto, "event-changed")).toEqual([])
    expect(await inbox(api, events, caio)).toEqual([])

    expectOk(await api.del(`/api/events/${event.id}`, owner()))
    for (const person of [ana, beto]) {
      expect(summary(await inbox(api, events, person))).toEqual([
        ["event_changed", null, subject],
        ["event_changed", null, subject]
      ])
    }
    expect((await mails(ana, "event-canceled")).map((mail) => mail.subject)).toEqual(["Evento cancelado: Encontro!"])
    expect(await mails(beto, "event-canceled")).toEqual([])
    // the ticket is no notification kind: e-mailed whatever the preferences
    expect(await mails(beto, "event-ticket")).toHaveLength(1)
  })

  it("reminds those going 24 h and 1 h before, in the app and (unless turned off) by e-mail, once", async () => {
    const [dora, edu] = [
      await events.addMember("member", "Dora Lembrada"),
      await events.addMember("member", "Edu Sem E-mail")
    ]
    await emailOff(edu, "event_reminder")
    // Earlier than the events of `events/notices.test.ts`: on a shared PostgreSQL, neither runs the other's reminders.
    const start = Date.UTC(2030, 3, 29, 20, 0, 0)
    const event = await createEvent(api, events, {
      title: "Palestra",
      startTime: new Date(start).toISOString(),
      endTime: new Date(start + 2 * HOUR).toISOString()
    })
    await participate(event.id, dora)
    await participate(event.id, edu)
    time.set(start - 24 * HOUR + 1000)
    await runJobs("events.reminder")
    const subject = { type: "event", id: event.id, title: "Palestra" }
    expect(summary(await inbox(api, events, dora))).toEqual([["event_reminder", null, subject]])
    expect(summary(await inbox(api, events, edu))).toEqual([["event_reminder", null, subject]])
    expect((await mails(dora, "event-reminder")).map((mail) => mail.subject)).toEqual([
      "Lembrete: Palestra começa em 24 horas"
    ])
    expect(await mails(edu, "event-reminder")).toEqual([])
    time.set(start - HOUR + 1000)
    await runJobs("events.reminder")
    expect(await inbox(api, events, dora)).toHaveLength(2)
    expect(await mails(dora, "event-reminder")).toHaveLength(2)
    expect(await inbox(api, events, edu)).toHaveLength(2)
    time.set(NOW)
  })
})

describe("course_update", () => {
  const enroll = async (courseId: string, person: Person) =>
    expectOk(await api.post(`/api/courses/${courseId}/enroll`, undefined, as(person, courses.community)), 201)
  const lessonJobs = () =>
    query<{ n: number }>(roda, (sql) => sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'courses.lessonAdded'`)

  it("a lesson added to a published course tells its learners through jobs, once each", async () => {
    const course = await createCourse(api, courses, { title: "Cerâmica" })
    const module = await createModule(api, courses, course.id)
    await createLesson(api, courses, module.id, { title: "Aula 1" })
    // a draft course has no learners: no job
    expect(await lessonJobs()).toEqual([{ n: 0 }])
    await publish(api, courses, course.id)
    const learners = [
      await courses.addMember("member", "Fia Aluna"),
      await courses.addMember("member", "Gui Aluno"),
      await courses.addMember("member", "Hugo Aluno")
    ]
    for (const learner of learners) await enroll(course.id, learner)
    const outsider = await courses.addMember("member", "Íris Fora")
    const lesson = await createLesson(api, courses, module.id, { title: "Aula 2" })
    await runJobs("courses.lessonAdded")
    const subject = { type: "course", id: course.id, title: "Cerâmica" }
    for (const learner of learners) {
      expect(summary(await inbox(api, courses, learner))).toEqual([["course_update", null, subject]])
    }
    expect((await inbox(api, courses, learners[0]!))[0].text).toBe("Nova aula em “Cerâmica”.")
    expect(await inbox(api, courses, outsider)).toEqual([])
    expect(await inbox(api, courses, courses.owner)).toEqual([])

    // the same job again, in batches of one (a chain of three jobs and a last empty one): no duplicate
    await roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) =>
      jobs.enqueue({
        kind: "courses.lessonAdded",
        key: `again:${lesson.id}`,
        payload: { communityId: courses.community.id, courseId: course.id, lessonId: lesson.id, batch: 1 }
      })))
    await runJobs("courses.lessonAdded")
    const runs = await query(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS n FROM jobs WHERE kind = 'courses.lessonAdded' AND status = 'done'
          AND payload->>'lessonId' = ${lesson.id}`
    )
    expect(runs).toEqual([{ n: 5 }])
    for (const learner of learners) expect(await inbox(api, courses, learner)).toHaveLength(1)
  })

  it("a learner removed from the community since is not told", async () => {
    const section = await createSection(api, courses, { visibility: "public" })
    const space = await createSpace(api, courses, section.id, { visibility: "public" })
    const course = await createCourse(api, { ...courses, space }, { title: "Saiu" })
    const module = await createModule(api, courses, course.id)
    await createLesson(api, courses, module.id, { title: "Antes" })
    await publish(api, courses, course.id)
    const gone = await courses.addMember("member", "Juca Removido")
    await enroll(course.id, gone)
    expectOk(await api.del(`/api/profiles/${gone.profileId}`, as(courses.owner, courses.community)))
    await createLesson(api, courses, module.id, { title: "Depois" })
    await runJobs("courses.lessonAdded")
    const rows = await query(
      roda,
      (sql) => sql`SELECT id FROM notifications WHERE recipient_profile_id = ${gone.profileId}`
    )
    expect(rows).toEqual([])
  })
})
