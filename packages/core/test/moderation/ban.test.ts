import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { NOT_MEMBER } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { type ModerationCommunity, moderationCommunity } from "./setup"

/**
 * Issue 56, item 1: banning a member (removed, and kept out until unbanned) and lifting the ban;
 * who may act on whom; the log, the notification and the `member.left` event.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const STAFF = ["owner", "admin", "moderator"]
const MEMBER_NOT_FOUND = "Membro não encontrado."
const SELF = "Você não pode moderar a si mesmo."
const OWNER_UNTOUCHABLE = "Ninguém pode suspender ou banir o dono da comunidade."
const ONLY_OWNER_ON_ADMIN = "Somente o dono da comunidade pode suspender ou banir um admin."
const ALREADY_BANNED = "Este membro já está banido."
const NOT_BANNED = "Este perfil não está banido."
const MEMBER_BANNED = "Esta pessoa foi banida da comunidade: desfaça o banimento antes de adicioná-la ou convidá-la."

type User = { token: string; profileId: string; email: string }
let m: ModerationCommunity
let other: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Banimentos")
  other = await moderationCommunity(api, "Outra")
})

const ban = (user: { token: string }, profileId: string, body: Record<string, unknown> = { reason: "Spam" }) =>
  api.post(`/api/moderation/members/${profileId}/ban`, body, m.in(user))
const unban = (user: { token: string }, profileId: string) =>
  api.post(`/api/moderation/members/${profileId}/unban`, undefined, m.in(user))

const query = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<ReadonlyArray<A>, unknown>) =>
  roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f) as Effect.Effect<ReadonlyArray<A>>)

describe("POST /api/moderation/members/{profileId}/ban and /unban", () => {
  it("removes and bans the member, logs, notifies and sends member.left; unban lifts it without a membership", async () => {
    const dora = (await m.addMember("member", "Dora Dias")) as User
    const data = expectOk(await ban(m.moderator, dora.profileId, { reason: " Spam repetido " }), 200, "Membro banido.")
    expect(data).toEqual({ profileId: dora.profileId, bannedAt: expect.any(String), banReason: "Spam repetido" })
    // no longer a member
    expectError(await api.post("/api/status", { body: "Oi" }, m.in(dora)), 403, NOT_MEMBER)
    const [entry] = expectOk(await api.get("/api/moderation/log?limit=1", m.in(m.owner))) as Array<any>
    expect(entry).toMatchObject({
      action: "ban",
      actor: { id: m.moderator.profileId },
      subject: { type: "profile", id: dora.profileId },
      caseId: null,
      note: "Spam repetido",
      until: null
    })
    const notified = await query<{ kind: string }>((sql) =>
      sql`SELECT kind FROM notifications WHERE recipient_profile_id = ${dora.profileId}`
    )
    expect(notified.map((n) => n.kind)).toEqual(["moderation"])
    const left = await query<{ data: any }>((sql) =>
      sql`SELECT data FROM webhook_events WHERE type = 'member.left' AND data->>'id' = ${dora.profileId}`
    )
    expect(left).toHaveLength(1)
    expect(left[0]!.data.removedAt).toBe(data.bannedAt)

    expectOk(await unban(m.admin, dora.profileId), 200, "Banimento desfeito; a pessoa pode voltar a ser convidada.")
    const [lifted] = expectOk(await api.get("/api/moderation/log?limit=1", m.in(m.owner))) as Array<any>
    expect(lifted).toMatchObject({ action: "unban", actor: { id: m.admin.profileId }, note: null })
    // lifted, but not a member again
    expectError(await api.post("/api/status", { body: "Oi" }, m.in(dora)), 403, NOT_MEMBER)
  })

  it("keeps a banned account out (invite, create) until unbanned", async () => {
    const eva = (await m.addMember("member", "Eva Esteves")) as User
    expectOk(await ban(m.owner, eva.profileId))
    expectError(await api.post("/api/profiles/invite", { email: eva.email }, m.in(m.owner)), 409, MEMBER_BANNED)
    expectError(await api.post("/api/profiles/create", { email: eva.email }, m.in(m.admin)), 409, MEMBER_BANNED)
    const english = await api.post("/api/profiles/invite", { email: eva.email }, {
      ...m.in(m.owner),
      headers: { "accept-language": "en" }
    })
    expectError(english, 409, "This person is banned from the community: lift the ban before adding or inviting them.")
    expectOk(await unban(m.moderator, eva.profileId))
    const invited = expectOk(await api.post("/api/profiles/invite", { email: eva.email }, m.in(m.owner)), 201)
    expect(invited).toMatchObject({ id: eva.profileId, status: "invited" })
  })

  it("answers 409 for a ban of a banned profile and an unban of one that is not banned", async () => {
    const fabio = (await m.addMember("member", "Fábio Farias")) as User
    expectError(await unban(m.moderator, fabio.profileId), 409, NOT_BANNED)
    const [first, second] = await Promise.all([ban(m.moderator, fabio.profileId), ban(m.admin, fabio.profileId)])
    expect([first.status, second.status].sort()).toEqual([200, 409])
    expectError(first.status === 409 ? first : second, 409, ALREADY_BANNED)
    const logged = await query<{ n: number }>((sql) =>
      sql`SELECT count(*)::int AS n FROM moderation_log WHERE subject_id = ${fabio.profileId} AND action = 'ban'`
    )
    expect(logged[0]!.n).toBe(1)
    expectOk(await unban(m.moderator, fabio.profileId))
    expectError(await unban(m.moderator, fabio.profileId), 409, NOT_BANNED)
  })

  it("refuses bad input with the field named", async () => {
    expectInvalid(await ban(m.moderator, m.carla.profileId, {}), "reason")
    expectInvalid(await ban(m.moderator, m.carla.profileId, { reason: "  " }), "reason")
    expectInvalid(await ban(m.moderator, m.carla.profileId, { reason: "x".repeat(2001) }), "reason")
    expectInvalid(await ban(m.moderator, "nope"), "profileId", "params")
  })

  it("is for staff only, never on oneself, and finds only profiles of this community", async () => {
    expectError(await ban(m.alice, m.bruno.profileId), 403, roleRequired(STAFF, "member"))
    expectError(await unban(m.alice, m.bruno.profileId), 403, roleRequired(STAFF, "member"))
    expectError(await ban(m.moderator, m.moderator.profileId), 403, SELF)
    expectError(await ban(m.moderator, other.alice.profileId), 404, MEMBER_NOT_FOUND)
    expectError(await unban(m.moderator, other.alice.profileId), 404, MEMBER_NOT_FOUND)
    expectError(await ban(m.moderator, unknownId()), 404, MEMBER_NOT_FOUND)
  })

  it("follows the rank rules: nobody on an owner, only an owner on an admin", async () => {
    const admin2 = (await m.addMember("admin", "Abel Admin")) as User
    const mod3 = (await m.addMember("moderator", "Mara Moderadora")) as User
    expectError(await ban(m.moderator, admin2.profileId), 403, ONLY_OWNER_ON_ADMIN)
    expectError(await ban(m.admin, admin2.profileId), 403, ONLY_OWNER_ON_ADMIN)
    for (const user of [m.admin, m.moderator]) {
      expectError(await ban(user, m.owner.profileId), 403, OWNER_UNTOUCHABLE)
      expectError(await unban(user, m.owner.profileId), 403, OWNER_UNTOUCHABLE)
    }
    expectOk(await ban(m.owner, admin2.profileId))
    // the admin's ban is lifted by an owner only
    expectError(await unban(m.moderator, admin2.profileId), 403, ONLY_OWNER_ON_ADMIN)
    expectOk(await unban(m.owner, admin2.profileId))
    expectOk(await ban(m.moderator2, mod3.profileId))
    expectOk(await unban(m.admin, mod3.profileId))
  })
})
