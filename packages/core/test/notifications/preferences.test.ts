import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type SocialCommunity, socialCommunity } from "../social/setup"
import { as } from "../support/community"
import { expectInvalid, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { inbox, join, mention, postStatus, unreadCount } from "./setup"

/** Issue 55, item 1: preferences (platform.md "Notifications"). */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const INSTANT = [
  "mention",
  "reply",
  "event_reminder",
  "event_changed",
  "certificate_issued",
  "submission_update",
  "invitation",
  "payment_failed",
  "payout_update",
  "moderation"
]
const DAILY = ["reaction", "space_post", "course_update"]

let setup: SocialCommunity
let other: SocialCommunity
beforeAll(async () => {
  setup = await socialCommunity(api, "Preferências")
  other = await socialCommunity(api, "Outra")
})

const preferences = async (user: { token: string }, community = setup.community) =>
  expectOk(await api.get("/api/notification-preferences", as(user, community)))
const save = (user: { token: string }, body: unknown) =>
  api.put("/api/notification-preferences", body, as(user, setup.community))

describe("GET /api/notification-preferences", () => {
  it("answers every kind with the defaults: in the app, e-mail instant or daily", async () => {
    const reply = await api.get("/api/notification-preferences", as(setup.alice, setup.community))
    const prefs = expectOk(reply)
    expect(reply.body.message).toBe("Preferências de notificação.")
    expect(Object.keys(prefs).sort()).toEqual([...INSTANT, ...DAILY].sort())
    for (const kind of INSTANT) expect(prefs[kind], kind).toEqual({ inApp: true, email: "instant" })
    for (const kind of DAILY) expect(prefs[kind], kind).toEqual({ inApp: true, email: "daily" })
  })
})

describe("PUT /api/notification-preferences", () => {
  it("changes what is given, keeps the rest, and answers every kind", async () => {
    const reply = await save(setup.alice, { reaction: { email: "weekly" }, space_post: { inApp: false, email: "off" } })
    const saved = expectOk(reply)
    expect(reply.body.message).toBe("Preferências de notificação salvas.")
    expect(saved.reaction).toEqual({ inApp: true, email: "weekly" })
    expect(saved.space_post).toEqual({ inApp: false, email: "off" })
    expect(saved.mention).toEqual({ inApp: true, email: "instant" })
    expect(await preferences(setup.alice)).toEqual(saved)
    const again = expectOk(await save(setup.alice, { reaction: { inApp: false } }))
    expect(again.reaction).toEqual({ inApp: false, email: "weekly" })
    expect(again.space_post).toEqual({ inApp: false, email: "off" })
    expect(expectOk(await save(setup.alice, {}))).toEqual(again)
  })

  it("in-app off: that kind is no longer written to the inbox; other kinds and other members still are", async () => {
    const quiet = await setup.addMember("member", "Quico Quiet")
    expectOk(await save(quiet, { mention: { inApp: false } }))
    await postStatus(api, setup, setup.alice, `Oi ${mention(quiet)} e ${mention(setup.bruno)}`)
    expect(await inbox(api, setup, quiet)).toEqual([])
    expect(await unreadCount(api, setup, quiet)).toBe(0)
    expect((await inbox(api, setup, setup.bruno, "?limit=1"))[0].subject.title).toBe("Oi @Nome e @Nome")
    expectOk(await save(quiet, { mention: { inApp: true } }))
    await postStatus(api, setup, setup.alice, `De novo ${mention(quiet)}`)
    expect((await inbox(api, setup, quiet)).map((n) => n.subject.title)).toEqual(["De novo @Nome"])
  })

  it("keeps each community's preferences apart", async () => {
    const there = await join(api, other, setup.bruno)
    expectOk(await save(setup.bruno, { mention: { email: "off" } }))
    expect((await preferences(there, other.community)).mention).toEqual({ inApp: true, email: "instant" })
  })

  it("refuses an unknown kind or value with 400 naming it", async () => {
    expectInvalid(await save(setup.alice, { nope: { inApp: false } }), "nope")
    expectInvalid(await save(setup.alice, { mention: { email: "hourly" } }), "mention.email")
    expectInvalid(await save(setup.alice, { mention: { inApp: "yes" } }), "mention.inApp")
    expectInvalid(await save(setup.alice, { mention: { push: true } }), "mention.push")
    expectInvalid(await save(setup.alice, { mention: true }), "mention")
    const reply = await api.put("/api/notification-preferences", undefined, {
      ...as(setup.alice, setup.community),
      raw: "[]"
    })
    expect(reply.status).toBe(400)
    expect((await preferences(setup.alice)).mention).toEqual({ inApp: true, email: "instant" })
  })
})
