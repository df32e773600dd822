import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type ReceivedMail, startSmtp } from "../../../../testing/smtp"
import type { Roda } from "../../src/index"
import { controlledClock, runJobs } from "../commerce/subscriptions-support"
import { type SocialCommunity, socialCommunity } from "../social/setup"
import { as } from "../support/community"
import { expectError, expectOk } from "../support/envelope"
import { type Client, client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { createSection, createSpace } from "../support/structure"
import { inbox, mention, postStatus } from "./setup"

/**
 * Issue 55, item 1: notification e-mails. `instant` ones go out when the minute they were written in
 * ends (a job per community and minute), digests at 08:00 in the community's time zone; each carries
 * the RFC 8058 one-click unsubscribe headers, whose link turns that kind's e-mail off.
 */
const HOUR = 3_600_000
// Monday 2030-04-29, 06:00 in São Paulo (UTC-3).
const time = controlledClock(Date.UTC(2030, 3, 29, 9, 0, 10))
let smtp: Awaited<ReturnType<typeof startSmtp>>
let roda: Roda
let api: Client
let setup: SocialCommunity
let space: { id: string }

beforeAll(async () => {
  smtp = await startSmtp()
  roda = startRoda({ smtpUrl: smtp.url, publicBaseUrl: "http://roda.test" }, { clock: time.clock })
  api = client(roda)
  setup = await socialCommunity(api, "E-mails")
  expectOk(
    await api.patch(`/api/communities/${setup.community.id}/settings`, { timezone: "America/Sao_Paulo" }, {
      token: setup.owner.token,
      community: setup.community.id
    })
  )
  const section = await createSection(api, setup, { visibility: "public" })
  space = await createSpace(api, setup, section.id, { module: "feed", visibility: "public", title: "Geral" })
}, 120_000)
afterAll(async () => {
  await roda?.dispose()
  await smtp?.close()
})

/** Lets the current minute end and runs what fell due. */
const nextMinute = async () => {
  time.set((Math.floor(time.now() / 60_000) + 1) * 60_000 + 1_000)
  await runJobs(roda)
}
/** The notification e-mails (those with an unsubscribe link) sent to `email`. */
const mailsTo = (email: string) =>
  smtp.received.filter((mail) => mail.to.includes(email) && /^List-Unsubscribe:/mi.test(mail.data))
const header = (mail: ReceivedMail, name: string) =>
  new RegExp(`^${name}: (.*)$`, "mi").exec(mail.data.replace(/\r\n[ \t]+/g, " "))?.[1]?.trim()
/** The text of a message, its quoted-printable undone as UTF-8 (so “ and ê read as themselves). */
const bodyOf = (mail: ReceivedMail) =>
  Buffer.from(
    mail.data.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) =>
      String.fromCharCode(parseInt(hex, 16))),
    "latin1"
  ).toString("utf8")
/** Waits until the outbox has handed every e-mail to the relay. */
const delivered = async () => {
  for (let i = 0; i < 200; i++) {
    const waiting = await query<{ n: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS n FROM outbox WHERE sent_at IS NULL`
    )
    if (waiting[0]!.n === 0) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error("the outbox was not delivered")
}
const member = (name: string) => setup.addMember("member", name)

describe("instant e-mails", () => {
  it("a mention is e-mailed once when its minute ends, with one-click unsubscribe headers", async () => {
    const carla = await member("Carla Citada")
    await postStatus(api, setup, setup.alice, `Oi ${mention(carla)}`)
    await runJobs(roda)
    await delivered()
    expect(mailsTo(carla.email)).toEqual([])

    await nextMinute()
    const mail = await smtp.mailTo(carla.email, /mencionou/)
    expect(bodyOf(mail)).toContain("Alice Alves mencionou você em “Oi @Nome”.")
    expect(bodyOf(mail)).toContain("Alice Alves mentioned you in “Oi @Nome”.")
    const link = header(mail, "List-Unsubscribe")!
    expect(link).toMatch(/^<http:\/\/roda\.test\/api\/notifications\/unsubscribe\?token=[\w-]+\.[\w-]+>$/)
    expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click")

    await nextMinute()
    await delivered()
    expect(mailsTo(carla.email)).toHaveLength(1)
  })

  it("a notification read in the app before its minute ends is not e-mailed", async () => {
    const dora = await member("Dora Lida")
    await postStatus(api, setup, setup.alice, `Leia ${mention(dora)}`)
    expectOk(await api.post("/api/notifications/read-all", undefined, as(dora, setup.community)))
    await nextMinute()
    await delivered()
    expect(mailsTo(dora.email)).toEqual([])
  })

  it("follows the preferences: e-mail off sends none; in-app off still e-mails, and the inbox stays empty", async () => {
    const eva = await member("Eva Sem E-mail")
    const fabio = await member("Fábio Só E-mail")
    expectOk(await api.put("/api/notification-preferences", { mention: { email: "off" } }, as(eva, setup.community)))
    expectOk(await api.put("/api/notification-preferences", { mention: { inApp: false } }, as(fabio, setup.community)))
    await postStatus(api, setup, setup.alice, `Oi ${mention(eva)} e ${mention(fabio)}`)
    await nextMinute()
    await smtp.mailTo(fabio.email, /mencionou/)
    await delivered()
    expect(mailsTo(eva.email)).toEqual([])
    expect(await inbox(api, setup, fabio)).toEqual([])
    expect((await inbox(api, setup, eva)).map((n) => n.kind)).toEqual(["mention"])
  })
})

describe("one-click unsubscribe (RFC 8058)", () => {
  it("the link's page asks and changes nothing; its POST turns that kind's e-mail off", async () => {
    const gil = await member("Gil Cancela")
    await postStatus(api, setup, setup.alice, `Primeira ${mention(gil)}`)
    await nextMinute()
    const mail = await smtp.mailTo(gil.email, /mencionou/)
    const url = new URL(header(mail, "List-Unsubscribe")!.slice(1, -1))
    const path = `${url.pathname}${url.search}`

    const page = await api.get(path)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(page.body).toContain("<form method=\"post\"")
    let prefs = expectOk(await api.get("/api/notification-preferences", as(gil, setup.community)))
    expect(prefs.mention).toEqual({ inApp: true, email: "instant" })

    // What a mail client sends: a form-encoded body, no token, no community header.
    const done = await api.call("POST", path, {
      raw: "List-Unsubscribe=One-Click",
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    expect(done.status).toBe(200)
    expect(done.headers.get("content-type")).toContain("text/html")
    prefs = expectOk(await api.get("/api/notification-preferences", as(gil, setup.community)))
    expect(prefs.mention).toEqual({ inApp: true, email: "off" })
    expect(prefs.reply).toEqual({ inApp: true, email: "instant" })
    expect((await api.call("POST", path)).status).toBe(200)

    await postStatus(api, setup, setup.alice, `Segunda ${mention(gil)}`)
    await nextMinute()
    await delivered()
    expect(mailsTo(gil.email)).toHaveLength(1)
    expect((await inbox(api, setup, gil)).map((n) => n.kind)).toEqual(["mention", "mention"])
  })

  it("refuses a token the server did not sign (400, param token)", async () => {
    const gil = await member("Gil Forja")
    const claims = Buffer.from(
      JSON.stringify({ c: setup.community.id, p: gil.profileId, k: ["mention"] })
    ).toString("base64url")
    for (const token of [`${claims}.${"A".repeat(43)}`, "nada", `${claims}`]) {
      const path = `/api/notifications/unsubscribe?token=${token}`
      const refused = expectError(await api.call("POST", path), 400, "Link de cancelamento inválido.")
      expect(refused.errors).toEqual([expect.objectContaining({ param: "token" })])
      expectError(await api.get(path), 400)
    }
    expectError(await api.get("/api/notifications/unsubscribe"), 400)
  })
})

describe("digests", () => {
  it("a followed space's posts (daily by default) arrive in one e-mail at 08:00 in the community's time zone", async () => {
    const hugo = await member("Hugo Segue")
    expectOk(await api.post(`/api/spaces/${space.id}/follow`, undefined, as(hugo, setup.community)))
    for (const title of ["Aviso um", "Aviso dois"]) {
      expectOk(
        await api.post("/api/content", { spaceId: space.id, title, body: "Texto" }, as(setup.bruno, setup.community)),
        201
      )
    }
    // The fan-out jobs may be running in the background already: wait for them.
    for (let i = 0; i < 100 && (await inbox(api, setup, hugo)).length < 2; i++) {
      await runJobs(roda)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect((await inbox(api, setup, hugo)).map((n) => n.kind)).toEqual(["space_post", "space_post"])
    // 07:00 in São Paulo: not yet.
    time.set(Date.UTC(2030, 3, 29, 10, 0, 5))
    await runJobs(roda)
    await delivered()
    expect(mailsTo(hugo.email)).toEqual([])
    // 08:00 there: one digest with both.
    time.set(Date.UTC(2030, 3, 29, 11, 0, 5))
    await runJobs(roda)
    const digest = await smtp.mailTo(hugo.email, /Resumo do dia/)
    expect(bodyOf(digest)).toContain("Bruno Braga publicou “Aviso um”.")
    expect(bodyOf(digest)).toContain("Bruno Braga posted “Aviso dois”.")
    expect(header(digest, "List-Unsubscribe")).toMatch(/unsubscribe\?token=/)
    // The next day at 08:00: nothing new, no e-mail.
    time.set(Date.UTC(2030, 3, 30, 11, 0, 5))
    await runJobs(roda)
    await delivered()
    expect(mailsTo(hugo.email)).toHaveLength(1)
  })
})

it("the hourly run sends an instant e-mail whose minute's job was lost", async () => {
  const ivo = await member("Ivo Atrasado")
  await postStatus(api, setup, setup.alice, `Oi ${mention(ivo)}`)
  await query(roda, (sql) => sql`DELETE FROM jobs WHERE kind = 'notifications.instantMail' AND status = 'queued'`)
  await nextMinute()
  await delivered()
  expect(mailsTo(ivo.email)).toEqual([])
  time.set((Math.floor(time.now() / HOUR) + 1) * HOUR + 5_000)
  await runJobs(roda)
  await smtp.mailTo(ivo.email, /mencionou/)
  expect(HOUR).toBeGreaterThan(0)
})
