import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type SocialCommunity, socialCommunity } from "../social/setup"
import { as, NOT_MEMBER } from "../support/community"
import { expectError, expectInvalid, expectOk, unknownId, UUID } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { inbox, join, mention, postStatus, unreadCount } from "./setup"

/** Issue 55, item 1: the inbox (platform.md "Notifications"). */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let other: SocialCommunity
beforeAll(async () => {
  setup = await socialCommunity(api, "Avisos")
  other = await socialCommunity(api, "Outra")
})

describe("GET /api/notifications", () => {
  it("lists the acting profile's notifications, newest first, with the text in Portuguese by default", async () => {
    const postId = await postStatus(api, setup, setup.alice, `Bem-vindo, ${mention(setup.bruno, "Bruno")}!`)
    const [item] = await inbox(api, setup, setup.bruno, "?limit=1")
    expect(item).toEqual({
      id: expect.stringMatching(UUID),
      kind: "mention",
      createdAt: expect.any(String),
      readAt: null,
      actor: { profileId: setup.alice.profileId, fullName: "Alice Alves" },
      subject: { type: "status", id: postId, title: "Bem-vindo, @Bruno!" },
      text: "Alice Alves mencionou você em “Bem-vindo, @Bruno!”."
    })
    const reply = await api.get("/api/notifications?limit=1", as(setup.bruno, setup.community))
    expect(reply.body.message).toBe("Notificações.")
    expect(reply.body.pagination).toEqual({ limit: 1, nextCursor: null })
  })

  it("speaks English with Accept-Language: en", async () => {
    const reply = await api.get("/api/notifications?limit=1", {
      ...as(setup.bruno, setup.community),
      headers: { "accept-language": "en" }
    })
    const [item] = expectOk(reply)
    expect(reply.body.message).toBe("Notifications.")
    expect(item.text).toBe("Alice Alves mentioned you in “Bem-vindo, @Bruno!”.")
  })

  it("pages by keyset: every notification once, newest first", async () => {
    const reader = await setup.addMember("member", "Paula Pages")
    for (let i = 0; i < 5; i++) await postStatus(api, setup, setup.alice, `Nota ${i} ${mention(reader)}`)
    const seen: Array<any> = []
    let cursor: string | null = null
    do {
      const reply = await api.get(
        `/api/notifications?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`,
        as(reader, setup.community)
      )
      const page = expectOk(reply)
      expect(page.length).toBeLessThanOrEqual(2)
      seen.push(...page)
      cursor = reply.body.pagination.nextCursor
    } while (cursor !== null)
    expect(seen.map((n) => n.subject.title)).toEqual([
      "Nota 4 @Nome",
      "Nota 3 @Nome",
      "Nota 2 @Nome",
      "Nota 1 @Nome",
      "Nota 0 @Nome"
    ])
    expect(new Set(seen.map((n) => n.id)).size).toBe(5)
  })

  it("filters the unread ones with ?unread=true", async () => {
    const reader = await setup.addMember("member", "Ulisses Unread")
    await postStatus(api, setup, setup.alice, `Um ${mention(reader)}`)
    await postStatus(api, setup, setup.alice, `Dois ${mention(reader)}`)
    const [newest, older] = await inbox(api, setup, reader)
    expectOk(await api.post(`/api/notifications/${newest.id}/read`, undefined, as(reader, setup.community)))
    expect((await inbox(api, setup, reader, "?unread=true")).map((n) => n.id)).toEqual([older.id])
    expect((await inbox(api, setup, reader, "?unread=false")).map((n) => n.id)).toEqual([newest.id, older.id])
  })

  it("refuses bad parameters with 400 naming them", async () => {
    const auth = as(setup.bruno, setup.community)
    expectInvalid(await api.get("/api/notifications?unread=yes", auth), "unread", "query")
    expectInvalid(await api.get("/api/notifications?limit=0", auth), "limit", "query")
    expectInvalid(await api.get("/api/notifications?limit=101", auth), "limit", "query")
    expectInvalid(await api.get("/api/notifications?cursor=nope", auth), "cursor", "query")
  })
})

describe("unread count, read and read-all", () => {
  it("counts the unread, marks one read (keeping the first readAt) and then all", async () => {
    const reader = await setup.addMember("member", "Rita Reader")
    expect(await unreadCount(api, setup, reader)).toBe(0)
    for (const n of [1, 2, 3]) await postStatus(api, setup, setup.alice, `Aviso ${n} ${mention(reader)}`)
    const count = await api.get("/api/notifications/unread-count", as(reader, setup.community))
    expect(expectOk(count)).toEqual({ count: 3 })
    expect(count.body.message).toBe("Notificações não lidas.")

    const [first] = await inbox(api, setup, reader)
    const read = await api.post(`/api/notifications/${first.id}/read`, undefined, as(reader, setup.community))
    const marked = expectOk(read)
    expect(read.body.message).toBe("Notificação marcada como lida.")
    expect(marked).toMatchObject({ id: first.id, kind: "mention", readAt: expect.any(String) })
    expect({ ...marked, readAt: null }).toEqual(first)
    expect(await unreadCount(api, setup, reader)).toBe(2)
    const again = expectOk(
      await api.post(`/api/notifications/${first.id}/read`, undefined, as(reader, setup.community))
    )
    expect(again.readAt).toBe(marked.readAt)
    expect(await unreadCount(api, setup, reader)).toBe(2)

    const all = await api.post("/api/notifications/read-all", undefined, as(reader, setup.community))
    expect(expectOk(all)).toEqual({ count: 2 })
    expect(all.body.message).toBe("Todas as notificações foram marcadas como lidas.")
    expect(await unreadCount(api, setup, reader)).toBe(0)
    expect((await inbox(api, setup, reader)).every((n) => n.readAt !== null)).toBe(true)
    expect(expectOk(await api.post("/api/notifications/read-all", undefined, as(reader, setup.community))))
      .toEqual({ count: 0 })
  })

  it("answers 404 for another member's notification and for another community's", async () => {
    const [bruno] = await inbox(api, setup, setup.bruno)
    const notFound = "Notificação não encontrada."
    const byAlice = await api.post(`/api/notifications/${bruno.id}/read`, undefined, as(setup.alice, setup.community))
    expectError(byAlice, 404, notFound)
    expect(byAlice.body.code).toBe("notification_not_found")
    expectError(
      await api.post(`/api/notifications/${unknownId()}/read`, undefined, as(setup.bruno, setup.community)),
      404,
      notFound
    )
    // Bruno's own notification, asked for in another community he belongs to.
    const elsewhere = await join(api, other, setup.bruno)
    expectError(
      await api.post(`/api/notifications/${bruno.id}/read`, undefined, as(elsewhere, other.community)),
      404,
      notFound
    )
    expect(await inbox(api, other, elsewhere)).toEqual([])
    expect((await inbox(api, setup, setup.bruno)).find((n) => n.id === bruno.id).readAt).toBeNull()
    expectInvalid(
      await api.post("/api/notifications/not-an-id/read", undefined, as(setup.bruno, setup.community)),
      "id",
      "params"
    )
  })

  it("keeps each community's inbox apart, and each acting profile's", async () => {
    const both = await register(api, "Dora Duas")
    const here = { ...both, profileId: (await join(api, setup, both)).profileId }
    const there = { ...both, profileId: (await join(api, other, both)).profileId }
    await postStatus(api, other, other.alice, `Lá ${mention(there)}`)
    expect((await inbox(api, other, there)).map((n) => n.subject.title)).toEqual(["Lá @Nome"])
    expect(await inbox(api, setup, here)).toEqual([])
    expect(await unreadCount(api, setup, here)).toBe(0)
    expect(expectOk(await api.post("/api/notifications/read-all", undefined, as(here, setup.community))))
      .toEqual({ count: 0 })
    expect(await unreadCount(api, other, there)).toBe(1)
  })
})

describe("who may call the inbox routes", () => {
  const routes = (id: string) =>
    [
      ["GET", "/api/notifications"],
      ["GET", "/api/notifications/unread-count"],
      ["POST", `/api/notifications/${id}/read`],
      ["POST", "/api/notifications/read-all"],
      ["GET", "/api/notification-preferences"],
      ["PUT", "/api/notification-preferences"]
    ] as const

  it("answers every member, staff or not, for their own inbox", async () => {
    for (const user of [setup.owner, setup.moderator, setup.alice]) {
      expectOk(await api.get("/api/notifications", as(user, setup.community)))
      expectOk(await api.get("/api/notifications/unread-count", as(user, setup.community)))
      expectOk(await api.post("/api/notifications/read-all", undefined, as(user, setup.community)))
    }
  })

  it("answers 401 without a token and 403 to a non-member", async () => {
    const stranger = await register(api, "Sara Stranger")
    for (const [method, path] of routes(unknownId())) {
      const body = method === "PUT" ? {} : undefined
      const anonymous = await api.call(method, path, { community: setup.community.id, body })
      expectError(anonymous, 401)
      expectError(await api.call(method, path, { ...as(stranger, setup.community), body }), 403, NOT_MEMBER)
    }
  })
})
