import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, newCommunity, type TestCommunity } from "./support/community"
import { expectCreated } from "./support/envelope"
import { client, startRoda } from "./support/harness"
import { createSection, createSpace } from "./support/structure"

/** Hostile input that used to answer 500: deep JSON, tampered cursors; and the smaller holes of issue 10 item 11. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let home: TestCommunity
let other: TestCommunity
beforeAll(async () => {
  home = await newCommunity(api, "Resiliencia")
  other = await newCommunity(api, "Outra")
  // Two of each, so every list below has a real next page to tamper with.
  const section = await createSection(api, home)
  await createSection(api, home)
  await createSpace(api, home, section.id)
  await createSpace(api, home, section.id)
  for (const body of ["primeiro", "segundo"]) {
    expectCreated(await api.post("/api/status", { body }, as(home.owner, home.community)))
  }
})

const TOO_DEEP = {
  success: false,
  code: "json_too_deep",
  message: "Request body is nested too deeply",
  errors: [{ param: "body", msg: "must not nest arrays and objects more than 64 levels deep", location: "body" }]
}

describe("deeply nested JSON", () => {
  const deepArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth)
  const deepObjects = (depth: number) => "{\"a\":".repeat(depth) + "1" + "}".repeat(depth)

  it.each([
    ["POST /api/auth/login", "/api/auth/login", false],
    ["POST /api/sections", "/api/sections", true],
    ["POST /api/status", "/api/status", true]
  ])("answers 400 for 3,000 levels on %s", async (_, path, scoped) => {
    const options = scoped ? as(home.owner, home.community) : {}
    for (const raw of [deepArrays(3000), deepObjects(3000), `{"title": ${deepArrays(3000)}}`]) {
      const reply = await api.call("POST", path, { ...options, raw })
      expect(reply.status, JSON.stringify(reply.body)).toBe(400)
      expect(reply.body).toEqual(TOO_DEEP)
    }
  })

  it("refuses 65 levels and reads 64", async () => {
    const options = as(home.owner, home.community)
    const over = await api.call("POST", "/api/sections", { ...options, raw: `{"title": ${deepArrays(64)}}` })
    expect(over.body).toEqual(TOO_DEEP)
    // 64 levels (the object itself plus 63 arrays) reach the schema, which names the field.
    const within = await api.call("POST", "/api/sections", { ...options, raw: `{"title": ${deepArrays(63)}}` })
    expect(within.status).toBe(400)
    expect(within.body.errors[0].param).toBe("title")
  })

  it("does not count brackets inside strings", async () => {
    const title = `${"[{".repeat(200)}"\\\\`
    const reply = await api.post("/api/sections", { title: title.slice(0, 150) }, as(home.owner, home.community))
    expect(reply.status, JSON.stringify(reply.body)).toBe(201)
    expect(reply.body.data.title).toBe(title.slice(0, 150))
  })
})

const cursorOf = (key: ReadonlyArray<unknown>) => Buffer.from(JSON.stringify(key)).toString("base64url")
const NOT_VALID = [{ param: "cursor", msg: "cursor is not valid", location: "query" }]

describe("tampered cursors", () => {
  const id = randomUUID()
  it.each([
    ["sections, position over int4", "/api/sections", [2147483648, id]],
    ["sections, position under int4", "/api/sections", [-2147483649, id]],
    ["sections, position 1e300", "/api/sections", [1e300, id]],
    ["spaces, section position over int4", "/api/spaces", [99999999999, 0, id]],
    ["spaces, position over int4", "/api/spaces", [0, 4294967296, id]],
    ["status, month 13", "/api/status", ["2024-13-45T00:00:00Z", id]],
    ["status, 30 February", "/api/status", ["2024-02-30T10:00:00.000000Z", id]],
    ["status, hour 25", "/api/status", ["2024-01-01T25:00:00Z", id]],
    ["feed, 31 April", "/api/feed", [0, "2024-04-31T10:00:00.000000Z", "status", id]],
    ["events, before PostgreSQL's first day", "/api/events", ["-271821-04-20T00:00:00.000Z", id]],
    ["events, year 0", "/api/events", ["0000-01-01T00:00:00.000Z", id]],
    ["events, 31 February written as text", "/api/events", ["Tue Feb 31 2024", id]],
    ["events, 30 February", "/api/events", ["2024-02-30T00:00:00.000Z", id]],
    ["profiles, not a uuid", "/api/profiles/list", ["x"]]
  ])("answers 400 for %s", async (_, path, key) => {
    const reply = await api.get(`${path}?limit=1&cursor=${cursorOf(key)}`, as(home.owner, home.community))
    expect(reply.status, JSON.stringify(reply.body)).toBe(400)
    expect(reply.body.errors).toEqual(NOT_VALID)
  })

  it.each(["/api/sections", "/api/spaces", "/api/status"])("still follows the real next page of %s", async (path) => {
    const first = await api.get(`${path}?limit=1`, as(home.owner, home.community))
    expect(first.status).toBe(200)
    expect(first.body.pagination.nextCursor).toEqual(expect.any(String))
    const second = await api.get(
      `${path}?limit=1&cursor=${first.body.pagination.nextCursor}`,
      as(home.owner, home.community)
    )
    expect(second.status).toBe(200)
    expect(second.body.data[0].id).not.toBe(first.body.data[0].id)
  })
})

describe("communityId in a body sent as Application/JSON", () => {
  it.each(["Application/JSON", "APPLICATION/JSON; charset=UTF-8", "application/Json"])(
    "is still checked against the header with %s",
    async (contentType) => {
      const reply = await api.call("POST", "/api/courses", {
        ...as(home.owner, home.community),
        raw: JSON.stringify({ title: "Mismatch", communityId: other.community.id }),
        headers: { "content-type": contentType }
      })
      expect(reply.status, JSON.stringify(reply.body)).toBe(400)
      expect(reply.body.errors).toEqual([{
        param: "communityId",
        msg: "communityId must equal the X-CommunityId header",
        location: "body"
      }])
    }
  )
})

describe("communityId in a body sent without a media type", () => {
  it("is checked too, since such a body is read as JSON", async () => {
    const response = await roda.handler(
      new Request("http://roda.test/api/courses", {
        method: "POST",
        headers: { authorization: `Bearer ${home.owner.token}`, "x-communityid": home.community.id },
        // bytes, not a string: a string body would get `text/plain` from the Request constructor
        body: new TextEncoder().encode(JSON.stringify({ title: "Mismatch", communityId: other.community.id }))
      }),
      { clientAddress: "127.0.0.1" }
    )
    expect(response.headers.get("content-type")).toContain("json")
    const body = await response.json()
    expect(response.status, JSON.stringify(body)).toBe(400)
    expect(body.errors[0].param).toBe("communityId")
  })
})

describe("CORS", () => {
  const preflight = (target: ReturnType<typeof client>, origin: string) =>
    target.call("OPTIONS", "/api/profiles/list", {
      headers: {
        origin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization,x-communityid"
      }
    })

  it("allows only the origin of publicBaseUrl by default, never *", async () => {
    const allowed = await preflight(api, "http://roda.test")
    expect(allowed.status).toBe(204)
    expect(allowed.headers.get("access-control-allow-origin")).toBe("http://roda.test")
    expect(allowed.headers.get("vary")).toMatch(/origin/i)

    const stranger = await preflight(api, "https://evil.example")
    expect(stranger.headers.get("access-control-allow-origin")).toBeNull()

    const simple = await api.get("/api/auth/me", { headers: { origin: "https://evil.example" } })
    expect(simple.headers.get("access-control-allow-origin")).toBeNull()
    const own = await api.get("/api/auth/me", { headers: { origin: "http://roda.test" } })
    expect(own.headers.get("access-control-allow-origin")).toBe("http://roda.test")
    expect(own.headers.get("vary")).toMatch(/origin/i)
  })

  it("reflects each origin of corsOrigins, and only those", async () => {
    const configured = startRoda({ corsOrigins: ["https://app.example", "https://admin.example"] })
    try {
      const other = client(configured)
      for (const origin of ["https://app.example", "https://admin.example"]) {
        const reply = await preflight(other, origin)
        expect(reply.headers.get("access-control-allow-origin")).toBe(origin)
      }
      expect((await preflight(other, "http://roda.test")).headers.get("access-control-allow-origin")).toBeNull()
      expect((await preflight(other, "https://app.example.evil")).headers.get("access-control-allow-origin"))
        .toBeNull()
    } finally {
      await configured.dispose()
    }
  })
})
