import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SPACE_POST_JOB, spacePostJob } from "../../src/notifications/FanOut"
import { Notify } from "../../src/notifications/Notify"
import { Jobs } from "../../src/platform/Jobs"
import { type SocialCommunity, socialCommunity } from "../social/setup"
import { as, NOT_MEMBER } from "../support/community"
import { expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { createSection, createSpace, setGrants } from "../support/structure"
import { inbox } from "./setup"

/** Issue 55, item 1: following spaces, and the `space_post` fan-out as durable jobs. */
// Jobs run when the test says so (`runDue`), not in the background.
const roda = startRoda({ runJobs: false })
const api = client(roda)
afterAll(() => roda.dispose())

const SPACE_UNKNOWN = "Espaço não encontrado."

let setup: SocialCommunity
let other: SocialCommunity
let spaces: Record<"open" | "gated" | "secret" | "elsewhere", { id: string }>
beforeAll(async () => {
  setup = await socialCommunity(api, "Seguir")
  other = await socialCommunity(api, "Outra")
  const section = await createSection(api, setup, { visibility: "public" })
  const feed = (body: Record<string, unknown>) =>
    createSpace(api, setup, section.id, { module: "feed", visibility: "public", ...body })
  spaces = {
    open: await feed({ title: "Geral" }),
    gated: await feed({ title: "Pago" }),
    secret: await feed({ title: "Secreto", visibility: "secret" }),
    elsewhere: await createSpace(api, other, (await createSection(api, other)).id, { module: "feed" })
  }
  await setGrants(roda, spaces.gated.id, { plans: [unknownId()] })
  await setGrants(roda, spaces.secret.id, { plans: [unknownId()] })
})

const follows = (spaceId: string) =>
  query<{ profileId: string }>(roda, (sql) => sql`SELECT profile_id FROM space_follows WHERE space_id = ${spaceId}`)
    .then((rows) => rows.map((row) => row.profileId).sort())

describe("POST|DELETE /api/spaces/{id}/follow", () => {
  it("follows a space the member may read, twice as once, and unfollows it, twice as once", async () => {
    const auth = as(setup.alice, setup.community)
    const followed = await api.post(`/api/spaces/${spaces.open.id}/follow`, undefined, auth)
    expect(expectOk(followed)).toEqual({ spaceId: spaces.open.id, following: true })
    expect(followed.body.message).toBe("Você está seguindo este espaço.")
    expectOk(await api.post(`/api/spaces/${spaces.open.id}/follow`, undefined, auth))
    expect(await follows(spaces.open.id)).toEqual([setup.alice.profileId])
    const unfollowed = await api.del(`/api/spaces/${spaces.open.id}/follow`, auth)
    expect(expectOk(unfollowed)).toEqual({ spaceId: spaces.open.id, following: false })
    expect(unfollowed.body.message).toBe("Você deixou de seguir este espaço.")
    expectOk(await api.del(`/api/spaces/${spaces.open.id}/follow`, auth))
    expect(await follows(spaces.open.id)).toEqual([])
  })

  it("is for every member; staff follow any space", async () => {
    for (const user of [setup.owner, setup.moderator, setup.bruno]) {
      expectOk(await api.post(`/api/spaces/${spaces.open.id}/follow`, undefined, as(user, setup.community)))
    }
    expectOk(await api.post(`/api/spaces/${spaces.secret.id}/follow`, undefined, as(setup.owner, setup.community)))
    expect(await follows(spaces.open.id)).toEqual(
      [setup.owner.profileId, setup.moderator.profileId, setup.bruno.profileId].sort()
    )
  })

  it("refuses a gated space (403), a hidden, unknown or another community's space (404), a malformed id (400)", async () => {
    const auth = as(setup.alice, setup.community)
    const gated = await api.post(`/api/spaces/${spaces.gated.id}/follow`, undefined, auth)
    expectError(gated, 403)
    expect(gated.body.code).toBe("space_content_forbidden")
    for (const id of [spaces.secret.id, spaces.elsewhere.id, unknownId()]) {
      const reply = await api.post(`/api/spaces/${id}/follow`, undefined, auth)
      expectError(reply, 404, SPACE_UNKNOWN)
      expect(reply.body.code).toBe("space_unknown")
      expectError(await api.del(`/api/spaces/${id}/follow`, auth), 404, SPACE_UNKNOWN)
    }
    expectInvalid(await api.post("/api/spaces/nope/follow", undefined, auth), "id", "params")
    expectInvalid(await api.del("/api/spaces/nope/follow", auth), "id", "params")
    expect(await follows(spaces.gated.id)).toEqual([])
  })

  it("answers 401 without a token and 403 to a non-member", async () => {
    const stranger = await register(api, "Sara Stranger")
    for (const method of ["POST", "DELETE"]) {
      const path = `/api/spaces/${spaces.open.id}/follow`
      expectError(await api.call(method, path, { community: setup.community.id }), 401)
      expectError(await api.call(method, path, as(stranger, setup.community)), 403, NOT_MEMBER)
    }
  })
})

describe("space_post to the followers, as durable jobs", () => {
  const runJobs = () =>
    roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) => jobs.runDue({ kinds: [SPACE_POST_JOB] })))
  const runAll = async () => {
    let ran = 0
    for (let n = await runJobs(); n > 0; n = await runJobs()) ran += n
    return ran
  }
  /** Who has the post's `space_post` in their inbox (`inApp`), or only waiting for an e-mail (`!inApp`). */
  const spacePosts = (postId: string, inApp = true) =>
    query<{ recipientProfileId: string }>(
      roda,
      (sql) =>
        sql`SELECT recipient_profile_id FROM notifications
          WHERE kind = 'space_post' AND subject_id = ${postId} AND in_app = ${inApp}`
    ).then((rows) => rows.map((row) => row.recipientProfileId).sort())

  it("is queued in the caller's transaction (none when it rolls back) and written by the jobs", async () => {
    const space = await createSpace(api, setup, (await createSection(api, setup)).id, { module: "feed" })
    const followers = [setup.alice, setup.bruno, setup.moderator]
    for (const user of [...followers, setup.owner]) {
      expectOk(await api.post(`/api/spaces/${space.id}/follow`, undefined, as(user, setup.community)))
    }
    const subject = { type: "content", id: unknownId(), title: "Novidades" }
    const notify = Effect.flatMap(
      Notify,
      (n) => n.notifyFollowers(setup.community.id, space.id, { actorProfileId: setup.owner.profileId, subject })
    )
    // Rolled back with its transaction: no job, no notification.
    await roda.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql.withTransaction(Effect.zipRight(notify, Effect.fail("rolled back")))
      ).pipe(Effect.ignore)
    )
    expect(await runAll()).toBe(0)
    expect(await spacePosts(subject.id)).toEqual([])

    await roda.runtime.runPromise(notify)
    expect(await spacePosts(subject.id)).toEqual([])
    expect(await runAll()).toBe(1)
    expect(await spacePosts(subject.id)).toEqual(followers.map((f) => f.profileId).sort())
    const [item] = await inbox(api, setup, setup.alice, "?limit=1")
    expect(item).toMatchObject({
      kind: "space_post",
      actor: { profileId: setup.owner.profileId, fullName: "Olga Owner" },
      subject,
      text: "Olga Owner publicou “Novidades”."
    })
  })

  it("pages through the followers in batches; a run again, or a batch queued again, duplicates nothing", async () => {
    const space = await createSpace(api, setup, (await createSection(api, setup)).id, { module: "feed" })
    const followers = [setup.alice, setup.bruno, setup.moderator]
    for (let i = 0; i < 4; i++) followers.push(await setup.addMember("member", `Fã ${i}`))
    for (const user of followers) {
      expectOk(await api.post(`/api/spaces/${space.id}/follow`, undefined, as(user, setup.community)))
    }
    // One follower turned space_post off in the app (its daily e-mail stays); one lost access to the space since.
    const quiet = followers[3]!
    expectOk(
      await api.put("/api/notification-preferences", { space_post: { inApp: false } }, as(quiet, setup.community))
    )
    const subject = { type: "content", id: unknownId(), title: "Em lotes" }
    const job = spacePostJob({
      communityId: setup.community.id,
      spaceId: space.id,
      actorProfileId: setup.alice.profileId,
      subject,
      batch: 2
    })
    const enqueue = () => roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) => jobs.enqueue(job)))
    await enqueue()
    // 7 followers by 2: batches of 2, 2, 2, 1.
    expect(await runAll()).toBe(4)
    const expected = followers.filter((f) => f !== quiet && f !== setup.alice).map((f) => f.profileId).sort()
    expect(await spacePosts(subject.id)).toEqual(expected)
    expect(await spacePosts(subject.id, false)).toEqual([quiet.profileId])
    await enqueue()
    expect(await runAll()).toBe(4)
    expect(await spacePosts(subject.id)).toEqual(expected)
    expect(await spacePosts(subject.id, false)).toEqual([quiet.profileId])
  })

  it("skips followers who may no longer read the space", async () => {
    const space = await createSpace(api, setup, (await createSection(api, setup)).id, { module: "feed" })
    for (const user of [setup.bruno, setup.moderator]) {
      expectOk(await api.post(`/api/spaces/${space.id}/follow`, undefined, as(user, setup.community)))
    }
    await setGrants(roda, space.id, { plans: [unknownId()] })
    const subject = { type: "content", id: unknownId(), title: "Só para assinantes" }
    await roda.runtime.runPromise(
      Effect.flatMap(
        Notify,
        (n) => n.notifyFollowers(setup.community.id, space.id, { actorProfileId: setup.owner.profileId, subject })
      )
    )
    await runAll()
    expect(await spacePosts(subject.id)).toEqual([setup.moderator.profileId])
  })

  it("notifies only those following when the post was made, not one who follows while the jobs wait", async () => {
    const space = await createSpace(api, setup, (await createSection(api, setup)).id, { module: "feed" })
    expectOk(await api.post(`/api/spaces/${space.id}/follow`, undefined, as(setup.bruno, setup.community)))
    const subject = { type: "content", id: unknownId(), title: "Antes de seguir" }
    await roda.runtime.runPromise(
      Effect.flatMap(
        Notify,
        (n) => n.notifyFollowers(setup.community.id, space.id, { actorProfileId: setup.owner.profileId, subject })
      )
    )
    await new Promise((resolve) => setTimeout(resolve, 5))
    expectOk(await api.post(`/api/spaces/${space.id}/follow`, undefined, as(setup.moderator, setup.community)))
    await runAll()
    expect(await spacePosts(subject.id)).toEqual([setup.bruno.profileId])
  })

  it("a member who joins follows the feed spaces they may read, and is told of their posts", async () => {
    const joiner = await setup.addMember("member", "Nina Nova")
    const follows = await query<{ spaceId: string }>(
      roda,
      (sql) => sql`SELECT space_id FROM space_follows WHERE profile_id = ${joiner.profileId}`
    )
    // the open feed, not the gated or secret ones, nor another community's
    expect(follows.map((row) => row.spaceId)).toContain(spaces.open.id)
    for (const closed of [spaces.gated, spaces.secret, spaces.elsewhere]) {
      expect(follows.map((row) => row.spaceId)).not.toContain(closed.id)
    }
    expectOk(
      await api.post(
        "/api/content",
        { spaceId: spaces.open.id, title: "Boas-vindas", body: "Olá" },
        as(setup.bruno, setup.community)
      ),
      201
    )
    // Mentioned in a post of a space they follow: told once, of the mention.
    expectOk(
      await api.post(
        "/api/content",
        { spaceId: spaces.open.id, title: "Chamada", body: `Oi @[Nina](${joiner.profileId})` },
        as(setup.bruno, setup.community)
      ),
      201
    )
    await runAll()
    expect((await inbox(api, setup, joiner)).map((n) => `${n.kind} ${n.subject.title}`).sort()).toEqual([
      "mention Chamada",
      "space_post Boas-vindas"
    ])
    // Unfollowing holds: joining does not follow again by itself.
    expectOk(await api.del(`/api/spaces/${spaces.open.id}/follow`, as(joiner, setup.community)))
    expect(
      await query(
        roda,
        (sql) =>
          sql`SELECT 1 FROM space_follows WHERE profile_id = ${joiner.profileId} AND space_id = ${spaces.open.id}`
      )
    ).toEqual([])
  })
})
