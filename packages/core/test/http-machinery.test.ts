import { HttpApi } from "@effect/platform"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MAX_BODY_BYTES, RodaApi } from "../src/index"
import { roleRequired } from "./support/envelope"
import { client, makeCommunity, PASSWORD, register, startRoda, type TestUser, uniqueEmail } from "./support/harness"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const NOT_MEMBER = { success: false, code: "not_member", message: "Você não é membro desta comunidade." }
const HEADER_MISSING = {
  success: false,
  code: "community_header_missing",
  message: "Send the community in the X-CommunityId header.",
  errors: [{ param: "X-CommunityId", msg: "X-CommunityId é obrigatório", location: "headers" }]
}
const ACTING_FORBIDDEN = {
  success: false,
  code: "acting_profile_forbidden",
  message: "Permissões insuficientes para usar X-ProfileId."
}
const ACTING_NOT_FOUND = {
  success: false,
  code: "acting_profile_not_found",
  message: "Profile not found in this community."
}
const ROUTE_NOT_FOUND = { success: false, code: "route_not_found", message: "Rota não encontrada." }
const TOO_LARGE = { success: false, code: "body_too_large", message: "Request body exceeds the 1 MB limit" }
const NOT_AN_OBJECT = {
  success: false,
  code: "invalid_input",
  message: "must be a JSON object",
  errors: [{ param: "body", msg: "must be a JSON object", location: "body" }]
}

type Member = TestUser & { readonly profileId: string }

/** One community with a member of every role, a second owner, and a second community. */
let world: {
  community: { id: string }
  owner: Member
  secondOwner: Member
  admin: Member
  moderator: Member
  member: Member
  finance: Member
  other: { community: { id: string }; owner: Member }
  outsider: TestUser
}

/** Adds one more member with `role` to the home community. */
let addHomeMember: (role: string) => Promise<Member>

beforeAll(async () => {
  const home = await makeCommunity(api, "Roda Machinery")
  addHomeMember = (role) => home.addMember(role)
  const other = await makeCommunity(api, "Roda Elsewhere")
  world = {
    community: home.community,
    owner: home.owner,
    secondOwner: await home.addMember("owner", "Second Owner"),
    admin: await home.addMember("admin"),
    moderator: await home.addMember("moderator"),
    member: await home.addMember("member"),
    finance: await home.addMember("finance"),
    other: { community: other.community, owner: other.owner },
    outsider: await register(api, "Outsider")
  }
})

/** Options for `user` calling in the home community. */
const inHome = (user: { token: string }, extra: { profile?: string; headers?: Record<string, string> } = {}) => ({
  token: user.token,
  community: world.community.id,
  ...extra
})

const settings = (user: { token: string }, extra: { profile?: string; headers?: Record<string, string> } = {}) =>
  api.patch(`/api/communities/${world.community.id}/settings`, { description: "updated" }, inHome(user, extra))

/** Sends a raw web Request, as a backend mounting Roda would. */
const send = async (init: RequestInit & { path?: string }) => {
  const response = await roda.handler(
    new Request(
      `http://roda.test${init.path ?? "/api/auth/register"}`,
      { method: "POST", duplex: "half", ...init } as RequestInit
    ),
    { clientAddress: "192.0.2.1" }
  )
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text), headers: response.headers }
}

/** A stream of `total` bytes of `x` in chunks of `chunk` bytes. */
const streamOf = (total: number, chunk = 64 * 1024) => {
  let sent = 0
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close()
      const size = Math.min(chunk, total - sent)
      sent += size
      controller.enqueue(new Uint8Array(size).fill(0x78))
    }
  })
}

/** A register body of exactly `bytes` bytes (the name is padded). */
const registerBodyOf = (bytes: number) => {
  const base = JSON.stringify({ fullName: "", email: uniqueEmail(), password: PASSWORD })
  return JSON.stringify({ fullName: "x".repeat(bytes - base.length), email: uniqueEmail(), password: PASSWORD }).slice(
    0,
    bytes
  )
}

describe("request bodies", () => {
  it.each([
    ["malformed JSON", "{bad"],
    ["truncated JSON", "{\"fullName\": \"Ana\", \"email\": \"ana@roda.test\""],
    ["an empty body", ""]
  ])("answers 400 with errors for %s", async (_, raw) => {
    const reply = await api.call("POST", "/api/auth/register", { raw })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "invalid_json",
      message: "Request body is not valid JSON",
      errors: [{ param: "body", msg: "must be valid JSON", location: "body" }]
    })
  })

  it.each([
    ["an array", [1, 2]],
    ["a string", "hello"],
    ["a number", 42],
    ["null", null],
    ["a boolean", true]
  ])("answers 400 naming the body when it is %s", async (_, body) => {
    const reply = await api.post("/api/auth/login", body)
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(NOT_AN_OBJECT)
  })

  it("answers 400 for JSON sent as text/plain", async () => {
    const reply = await api.call("POST", "/api/auth/login", {
      raw: JSON.stringify({ email: "ana@roda.test", password: PASSWORD }),
      headers: { "content-type": "text/plain" }
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(NOT_AN_OBJECT)
  })

  it("names every field of the wrong type", async () => {
    const reply = await api.post("/api/auth/register", { fullName: 1, email: true, password: null })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "invalid_input",
      message: "Expected string, actual 1",
      errors: [
        { param: "fullName", msg: "Expected string, actual 1", location: "body" },
        { param: "email", msg: "Expected string, actual true", location: "body" },
        { param: "password", msg: "Expected string, actual null", location: "body" }
      ]
    })
  })

  it("names a nested field by its path", async () => {
    const reply = await api.put(`/api/profiles/${world.owner.profileId}/tags`, { tags: ["ok", 3] }, inHome(world.owner))
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toEqual([{ param: "tags.1", msg: "Expected string, actual 3", location: "body" }])
  })

  it("does not echo a long value back", async () => {
    const reply = await api.post("/api/auth/login", { email: "x".repeat(100_000), password: PASSWORD })
    expect(reply.status).toBe(400)
    expect(reply.body.errors).toHaveLength(1)
    expect(reply.body.errors[0]).toMatchObject({ param: "email", location: "body" })
    expect(reply.body.errors[0].msg).toMatch(/^Expected a string at most 320 character\(s\) long/)
    expect(JSON.stringify(reply.body).length).toBeLessThan(1000)
  })

  it("names a path parameter with location params", async () => {
    const reply = await api.patch("/api/communities/not-a-uuid/settings", { description: "x" }, inHome(world.owner))
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "invalid_input",
      message: "must be a valid UUID",
      errors: [{ param: "id", msg: "must be a valid UUID", location: "params" }]
    })
  })

  it("names a query parameter with location query, once", async () => {
    const notANumber = await api.get("/api/profiles/list?limit=abc", inHome(world.owner))
    expect(notANumber.status).toBe(400)
    expect(notANumber.body.errors).toEqual([{
      param: "limit",
      msg: "limit must be an integer between 1 and 100",
      location: "query"
    }])

    const tooMany = await api.get("/api/profiles/list?limit=1000", inHome(world.owner))
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.errors).toEqual([{
      param: "limit",
      msg: "limit must be an integer between 1 and 100",
      location: "query"
    }])

    const badCursor = await api.get("/api/profiles/list?cursor=%%%", inHome(world.owner))
    expect(badCursor.status).toBe(400)
    expect(badCursor.body.errors).toEqual([{ param: "cursor", msg: "cursor is not valid", location: "query" }])
  })
})

describe("body size limit (1 MB)", () => {
  it("answers 413 when Content-Length is over the limit", async () => {
    const reply = await send({
      body: "x".repeat(MAX_BODY_BYTES + 1),
      headers: { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES + 1) }
    })
    expect(reply.status).toBe(413)
    expect(reply.body).toEqual(TOO_LARGE)
  })

  it("answers 413 for a chunked body (a stream without Content-Length) over the limit", async () => {
    const reply = await send({ body: streamOf(2 * MAX_BODY_BYTES), headers: { "content-type": "application/json" } })
    expect(reply.status).toBe(413)
    expect(reply.body).toEqual(TOO_LARGE)
  })

  it("answers 413 when the body is larger than its Content-Length says", async () => {
    const reply = await send({
      body: "x".repeat(2 * MAX_BODY_BYTES),
      headers: { "content-type": "application/json", "content-length": "100" }
    })
    expect(reply.status).toBe(413)
    expect(reply.body).toEqual(TOO_LARGE)
  })

  it("reads a body of exactly 1 MB, and refuses one byte more", async () => {
    const exact = registerBodyOf(MAX_BODY_BYTES)
    expect(Buffer.byteLength(exact)).toBe(MAX_BODY_BYTES)
    const read = await send({ body: exact, headers: { "content-type": "application/json" } })
    expect(read.status).toBe(400)
    expect(read.body.errors).toEqual([{
      param: "fullName",
      msg: "must be between 1 and 200 characters",
      location: "body"
    }])

    const over = await send({ body: `${exact} `, headers: { "content-type": "application/json" } })
    expect(over.status).toBe(413)
  })

  it("reads a small streamed body", async () => {
    const email = uniqueEmail("stream")
    const bytes = new TextEncoder().encode(JSON.stringify({ fullName: "Streamed", email, password: PASSWORD }))
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 10))
        controller.enqueue(bytes.subarray(10))
        controller.close()
      }
    })
    const reply = await send({ body, headers: { "content-type": "application/json" } })
    expect(reply.status).toBe(201)
    expect(reply.body.data.email).toBe(email)
  })

  it("answers 413 in the envelope in English too", async () => {
    const reply = await send({
      body: streamOf(MAX_BODY_BYTES + 1),
      headers: { "content-type": "application/json", "accept-language": "en" }
    })
    expect(reply.status).toBe(413)
    expect(reply.body).toEqual(TOO_LARGE)
  })
})

describe("routes", () => {
  it("answers 404 in the envelope for an unknown route", async () => {
    const reply = await api.get("/api/nothing-here")
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(ROUTE_NOT_FOUND)
    expect(reply.headers.get("content-type")).toContain("application/json")

    const english = await api.get("/api/nothing-here", { headers: { "accept-language": "en" } })
    expect(english.body).toEqual({ success: false, code: "route_not_found", message: "Route not found." })
  })

  it("answers HEAD on a GET route with the GET's status and headers, and no body", async () => {
    const community = (await makeCommunity(api)).community.id
    const head = await roda.handler(
      new Request("http://roda.test/api/spaces/modules", { method: "HEAD", headers: { "x-communityid": community } })
    )
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toContain("application/json")
    expect(await head.text()).toBe("")
    const unknown = await roda.handler(new Request("http://roda.test/api/nothing-here", { method: "HEAD" }))
    expect(unknown.status).toBe(404)
  })

  it("answers 404 for a known path with another method", async () => {
    const reply = await api.del("/api/auth/login")
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(ROUTE_NOT_FOUND)
  })

  it.each([
    ["GET", "products"],
    ["POST", "products"],
    ["GET", "coupons"],
    ["GET", "subscription-groups"],
    ["PATCH", "subscription-groups/reorder"],
    ["GET", "fees"],
    ["POST", "fees/simulate"],
    ["GET", "ledger"],
    ["GET", "payouts/balance"],
    ["GET", "reports/sales"],
    ["POST", "business-information"],
    ["GET", "payout-settings"],
    ["GET", "subscriptions/me"],
    ["POST", "checkout"]
  ])("answers 404 for the old path %s /api/communities/{id}/%s (spec §9)", async (method, rest) => {
    const reply = await api.call(method, `/api/communities/${world.community.id}/${rest}`, {
      ...inHome(world.owner),
      ...(method === "GET" ? {} : { body: {} })
    })
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(ROUTE_NOT_FOUND)
  })

  it("answers a CORS preflight from the service's own origin (publicBaseUrl), never with *", async () => {
    const reply = await api.call("OPTIONS", "/api/profiles/list", {
      headers: {
        origin: "http://roda.test",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization,x-communityid,x-profileid"
      }
    })
    expect(reply.status).toBe(204)
    expect(reply.headers.get("access-control-allow-origin")).toBe("http://roda.test")
    expect(reply.headers.get("access-control-allow-headers")).toBe(
      "authorization,content-type,accept-language,x-communityid,x-profileid,idempotency-key"
    )
    const stranger = await api.call("OPTIONS", "/api/profiles/list", {
      headers: { origin: "https://app.example", "access-control-request-method": "GET" }
    })
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull()
  })

  it("names the readable answer headers on every answer; reflects only an allowed origin", async () => {
    const plain = await api.get("/api/nothing-here")
    expect(plain.headers.get("access-control-expose-headers")).toBe(
      "retry-after,idempotent-replayed,ratelimit-policy,ratelimit"
    )
    expect(plain.headers.get("access-control-allow-origin")).toBeNull()
    const own = await api.get("/api/nothing-here", { headers: { origin: "http://roda.test" } })
    expect(own.headers.get("access-control-allow-origin")).toBe("http://roda.test")
    expect(own.headers.get("vary")).toBe("Origin")
    expect(own.headers.get("access-control-expose-headers")).toBe(
      "retry-after,idempotent-replayed,ratelimit-policy,ratelimit"
    )
    const stranger = await api.get("/api/nothing-here", { headers: { origin: "https://app.example" } })
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull()
    expect(stranger.headers.get("access-control-expose-headers")).toBe(
      "retry-after,idempotent-replayed,ratelimit-policy,ratelimit"
    )
  })
})

describe("Accept-Language", () => {
  it.each([
    ["no header", undefined, "pt"],
    ["pt", "pt", "pt"],
    ["pt-BR", "pt-BR", "pt"],
    ["en", "en", "en"],
    ["en-US with fallbacks", "en-US,en;q=0.9", "en"],
    ["a language we do not speak", "fr-FR", "pt"],
    ["English preferred by q", "pt;q=0.4, en;q=0.8", "en"],
    ["Portuguese preferred by q", "en;q=0.4, pt-BR;q=0.8", "pt"]
  ])("with %s answers in %s", async (_, language, expected) => {
    const reply = await api.get("/api/profiles/list", {
      token: world.outsider.token,
      community: world.community.id,
      ...(language === undefined ? {} : { headers: { "accept-language": language } })
    })
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual({
      success: false,
      code: "not_member",
      message: expected === "en" ? "You are not a member of this community." : "Você não é membro desta comunidade."
    })
  })

  it("translates success messages too", async () => {
    const pt = await api.get("/api/profiles/list", inHome(world.member))
    const en = await api.get("/api/profiles/list", inHome(world.member, { headers: { "accept-language": "en" } }))
    expect(pt.body.message).toBe("Perfis encontrados.")
    expect(en.body.message).toBe("Profiles found.")
  })
})

describe("X-CommunityId", () => {
  it("is required: 400 naming X-CommunityId", async () => {
    const reply = await api.get("/api/profiles/list", { token: world.member.token })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual(HEADER_MISSING)
  })

  it.each(["not-a-uuid", "12345", `${randomUUID()}0`, "   "])(
    "refuses the malformed value %j with the same 400",
    async (value) => {
      const reply = await api.get("/api/profiles/list", {
        token: world.member.token,
        headers: { "x-communityid": value }
      })
      expect(reply.status).toBe(400)
      expect(reply.body).toEqual(HEADER_MISSING)
    }
  )

  it("gives the field message in English with Accept-Language: en", async () => {
    const reply = await api.get("/api/profiles/list", {
      token: world.member.token,
      headers: { "accept-language": "en" }
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "community_header_missing",
      message: "Send the community in the X-CommunityId header.",
      errors: [{ param: "X-CommunityId", msg: "X-CommunityId is required", location: "headers" }]
    })
  })

  it("is checked after the token: no token answers 401", async () => {
    const reply = await api.get("/api/profiles/list")
    expect(reply.status).toBe(401)
    expect(reply.body).toEqual({ success: false, code: "token_required", message: "Authentication token is required" })
  })

  it("accepts the id in upper case", async () => {
    const reply = await api.get("/api/profiles/list", {
      token: world.member.token,
      community: world.community.id.toUpperCase()
    })
    expect(reply.status).toBe(200)
  })

  it("answers 403 to an account that is not a member", async () => {
    const outsider = await api.get("/api/profiles/list", { token: world.outsider.token, community: world.community.id })
    expect(outsider.status).toBe(403)
    expect(outsider.body).toEqual(NOT_MEMBER)

    const ownerOfAnother = await api.get("/api/profiles/list", {
      token: world.other.owner.token,
      community: world.community.id
    })
    expect(ownerOfAnother.status).toBe(403)
    expect(ownerOfAnother.body).toEqual(NOT_MEMBER)

    const nowhere = await api.get("/api/profiles/list", { token: world.member.token, community: randomUUID() })
    expect(nowhere.status).toBe(403)
    expect(nowhere.body).toEqual(NOT_MEMBER)
  })

  it("is not needed on the account's own routes", async () => {
    expect((await api.get("/api/communities/my", { token: world.member.token })).status).toBe(200)
    expect((await api.get("/api/profiles/my", { token: world.member.token })).status).toBe(200)
    expect((await api.get("/api/auth/me", { token: world.member.token })).status).toBe(200)
  })
})

describe("roles", () => {
  it.each(["member", "moderator", "finance"] as const)(
    "answers 403 `Função necessária: owner ou admin. Sua função: %s` for settings",
    async (role) => {
      const reply = await settings(world[role])
      expect(reply.status).toBe(403)
      expect(reply.body).toEqual({
        success: false,
        code: "role_required",
        message: roleRequired(["owner", "admin"], role)
      })
    }
  )

  it("gives the exact message of spec §7 for a member", async () => {
    const reply = await settings(world.member)
    expect(reply.body.message).toBe("Função necessária: owner ou admin. Sua função: member")
    const english = await settings(world.member, { headers: { "accept-language": "en" } })
    expect(english.body.message).toBe("Required role: owner or admin. Your role: member")
  })

  it.each(["owner", "admin"] as const)("lets the %s change settings", async (role) => {
    const reply = await settings(world[role])
    expect(reply.status).toBe(200)
    expect(reply.body.data.settings.description).toBe("updated")
  })
})

describe("X-ProfileId", () => {
  const list = (user: { token: string }, profile: string) => api.get("/api/profiles/list", inHome(user, { profile }))

  it("is refused to a member: 403 (rule 1)", async () => {
    const reply = await list(world.member, world.moderator.profileId)
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual(ACTING_FORBIDDEN)

    const english = await api.get(
      "/api/profiles/list",
      inHome(world.member, {
        profile: world.moderator.profileId,
        headers: { "accept-language": "en" }
      })
    )
    expect(english.body).toEqual({
      success: false,
      code: "acting_profile_forbidden",
      message: "Insufficient permissions to use X-ProfileId."
    })
  })

  it("is refused to finance: 403 (rule 1)", async () => {
    const reply = await list(world.finance, world.member.profileId)
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual(ACTING_FORBIDDEN)
  })

  it("naming one's own profile is no acting, so a member may send it", async () => {
    expect((await list(world.member, world.member.profileId)).status).toBe(200)
  })

  it.each(["owner", "admin", "moderator"] as const)("lets the %s act as a member (rule 1)", async (role) => {
    const reply = await list(world[role], world.member.profileId)
    expect(reply.status).toBe(200)
  })

  it("must name a profile of the same community: 404 (rule 2)", async () => {
    const otherCommunity = await list(world.admin, world.other.owner.profileId)
    expect(otherCommunity.status).toBe(404)
    expect(otherCommunity.body).toEqual(ACTING_NOT_FOUND)

    const unknown = await list(world.owner, randomUUID())
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual(ACTING_NOT_FOUND)
  })

  it("must name a profile still in the community: 404 once it is removed (rule 2)", async () => {
    const leaving = await addHomeMember("member")
    expect((await list(world.admin, leaving.profileId)).status).toBe(200)
    const removed = await api.del(`/api/profiles/${leaving.profileId}`, inHome(world.owner))
    expect(removed.status).toBe(200)
    const reply = await list(world.admin, leaving.profileId)
    expect(reply.status).toBe(404)
    expect(reply.body).toEqual(ACTING_NOT_FOUND)
  })

  it("must be a valid id: 400 naming X-ProfileId", async () => {
    const reply = await list(world.admin, "not-a-uuid")
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      success: false,
      code: "invalid_input",
      message: "X-ProfileId must be a valid UUID",
      errors: [{ param: "X-ProfileId", msg: "X-ProfileId must be a valid UUID", location: "headers" }]
    })
  })

  it.each(["admin", "moderator"] as const)("refuses a %s acting as an owner: 403 (rule 3)", async (role) => {
    const reply = await list(world[role], world.owner.profileId)
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual(ACTING_FORBIDDEN)
  })

  it("lets an owner act as another owner (rule 3)", async () => {
    expect((await list(world.owner, world.secondOwner.profileId)).status).toBe(200)
    expect((await list(world.secondOwner, world.owner.profileId)).status).toBe(200)
  })

  it("leaves the caller their own permissions: an admin acting as a member still manages settings (rule 4)", async () => {
    const reply = await settings(world.admin, { profile: world.member.profileId })
    expect(reply.status).toBe(200)
  })

  it("does not lend the acted profile's role: a moderator acting as an admin stays a moderator (rule 4)", async () => {
    const reply = await settings(world.moderator, { profile: world.admin.profileId })
    expect(reply.status).toBe(403)
    expect(reply.body).toEqual({
      success: false,
      code: "role_required",
      message: roleRequired(["owner", "admin"], "moderator")
    })
  })
})

describe("OpenAPI and docs", () => {
  /** The routes of the spec's Authentication and Communities-and-profiles tables. */
  const specRoutes = [
    "post /api/auth/login",
    "get /api/auth/me",
    "post /api/auth/register",
    "put /api/auth/change-password",
    "post /api/auth/recovery-password",
    "post /api/auth/set-password",
    "post /api/communities",
    "get /api/communities/my",
    "post /api/communities/domain",
    "put /api/communities/{id}",
    "delete /api/communities/{id}",
    "get /api/communities/{id}/members",
    "patch /api/communities/{id}/settings",
    "get /api/notification-settings",
    "put /api/notification-settings",
    "post /api/profiles/invite",
    "post /api/profiles/create",
    "get /api/profiles/autocomplete",
    "get /api/profiles/list",
    "get /api/profiles/my",
    "get /api/profiles/tags",
    "put /api/profiles/tags/{tag}",
    "delete /api/profiles/tags/{tag}",
    "put /api/profiles/tags/{tag}/color",
    "put /api/profiles/{id}/email",
    "put /api/profiles/{id}/phone",
    "put /api/profiles/{id}/tags",
    "put /api/profiles/{id}",
    "delete /api/profiles/{id}",
    "put /api/profiles/{id}/role"
  ]

  /** Every endpoint the identity, communities and profiles groups declare, as `method /path`. */
  const declaredRoutes = () => {
    const routes: Array<string> = []
    HttpApi.reflect(RodaApi, {
      onGroup: () => {},
      onEndpoint: ({ endpoint, group }) => {
        if (["identity", "communities", "profiles"].includes(group.identifier)) {
          routes.push(`${endpoint.method.toLowerCase()} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`)
        }
      }
    })
    return routes
  }

  it("serves the OpenAPI document with every route", async () => {
    const reply = await api.get("/api/openapi.json")
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("application/json")
    const doc = reply.body
    expect(doc.info.title).toBe("Roda API")
    expect(doc.paths["/api/auth/login"]?.post).toBeDefined()
    expect(doc.paths["/api/profiles/{id}/role"]?.put).toBeDefined()

    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap((
      [path, operations]
    ) => Object.keys(operations).map((method) => `${method} ${path}`))
    expect(documented).toEqual(expect.arrayContaining(specRoutes))
    const declared = declaredRoutes()
    expect(declared.length).toBeGreaterThanOrEqual(specRoutes.length)
    expect(documented).toEqual(expect.arrayContaining(declared))
  })

  it("documents bearer authentication and the error envelope", async () => {
    const doc = (await api.get("/api/openapi.json")).body
    expect(doc.components.securitySchemes.bearer).toEqual({ type: "http", scheme: "bearer" })
    const login = doc.paths["/api/auth/login"].post
    expect(Object.keys(login.responses)).toEqual(expect.arrayContaining(["200", "401", "429"]))
    expect(JSON.stringify(doc.paths["/api/auth/set-password"].post.responses)).toContain("410")
  })

  it("documents the community headers on scoped routes only", async () => {
    const doc = (await api.get("/api/openapi.json")).body
    const headers = (path: string, method: string) =>
      (doc.paths[path][method].parameters ?? []).filter((p: { in: string }) => p.in === "header").map((
        p: { name: string; required: boolean }
      ) => `${p.name}${p.required ? "" : "?"}`)
    expect(headers("/api/profiles/list", "get")).toEqual(["X-CommunityId", "X-ProfileId?"])
    expect(headers("/api/communities/{id}", "put")).toEqual(["X-CommunityId", "X-ProfileId?"])
    expect(headers("/api/auth/me", "get")).toEqual([])
    expect(headers("/api/communities", "post")).toEqual(["Idempotency-Key?"])
    expect(headers("/api/profiles/my", "get")).toEqual([])
    // Every POST takes Idempotency-Key (checkout declares its own, once).
    expect(headers("/api/sections", "post")).toEqual(["X-CommunityId", "X-ProfileId?", "Idempotency-Key?"])
    expect(headers("/api/checkout", "post").filter((h: string) => h.toLowerCase().startsWith("idempotency-key")))
      .toHaveLength(1)
  })

  it("serves the docs page as HTML", async () => {
    const reply = await api.get("/api/docs")
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toContain("text/html")
    expect(reply.body).toMatch(/<html/i)
  })
})
