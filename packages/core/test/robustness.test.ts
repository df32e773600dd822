import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { client, makeCommunity, startRoda } from "./support/harness"

/** Whatever a client sends, the answer is a 4xx envelope, never a 5xx. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let auth: { token: string; community: string }
let profileId: string
beforeAll(async () => {
  const { owner, community } = await makeCommunity(api)
  auth = { token: owner.token, community: community.id }
  profileId = owner.profileId
})

const expectClientError = (reply: { status: number; body: any }, status?: number) => {
  expect(reply.status, JSON.stringify(reply.body)).toBeGreaterThanOrEqual(400)
  expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(500)
  if (status !== undefined) expect(reply.status).toBe(status)
  expect(reply.body.success).toBe(false)
}

describe("odd input never reaches a 5xx", () => {
  it("refuses NUL characters in bodies, as JSON escapes or raw bytes", async () => {
    const escaped = await api.call("POST", "/api/communities", { raw: "{\"name\":\"a\\u0000b\"}", token: auth.token })
    expectClientError(escaped, 400)
    expect(escaped.body.errors[0]).toEqual({ param: "body", msg: "must not contain NUL characters", location: "body" })
    expectClientError(
      await api.call("POST", "/api/auth/login", { raw: "{\"email\":\"a\u0000\",\"password\":\"x\"}" }),
      400
    )
    expectClientError(await api.put(`/api/profiles/${profileId}`, { bio: "x\u0000y" }, auth), 400)
  })

  it("keeps an escaped backslash before u0000 as ordinary text", async () => {
    const reply = await api.put(`/api/profiles/${profileId}`, { bio: "path C:\\u0000dir" }, auth)
    expect(reply.status).toBe(200)
    expect(reply.body.data.bio).toBe("path C:\\u0000dir")
  })

  it("refuses NUL characters in paths and query strings", async () => {
    expectClientError(await api.get("/api/profiles/list?search=a%00b", auth), 400)
    expectClientError(await api.del("/api/profiles/tags/a%00b", auth), 400)
  })

  it("answers malformed percent-encoding and strange paths with 4xx", async () => {
    for (
      const path of [
        "/api/profiles/%E0%A4%A/role",
        "/api/profiles/tags/%",
        "/api/profiles/tags/%ZZ",
        "/api/communities/../../etc/passwd",
        "/api//profiles//list",
        `/api/profiles/${"a".repeat(5000)}`
      ]
    ) {
      const reply = await api.put(path, { role: "member" }, auth)
      expectClientError(reply)
    }
  })

  it("answers huge numbers, deep nesting and wrong types with 400", async () => {
    expectClientError(await api.get("/api/profiles/list?limit=1e309", auth), 400)
    expectClientError(await api.get("/api/profiles/list?limit=99999999999999999999", auth), 400)
    expectClientError(await api.get("/api/profiles/list?role=owner&role=admin", auth), 400)
    let nested: unknown = "x"
    for (let i = 0; i < 2000; i++) nested = [nested]
    expectClientError(await api.post("/api/communities", { name: nested }, { token: auth.token }), 400)
    expectClientError(await api.post("/api/communities", { name: { toString: "x" } }, { token: auth.token }), 400)
    expectClientError(await api.put(`/api/profiles/${profileId}/tags`, { tags: "vip" }, auth), 400)
  })

  it("answers long strings within limits as validation errors", async () => {
    expectClientError(await api.post("/api/communities", { name: "x".repeat(100_000) }, { token: auth.token }), 400)
    expectClientError(await api.get(`/api/profiles/autocomplete?q=${"%25".repeat(400)}`, auth), 400)
    const search = await api.get(`/api/profiles/list?search=${encodeURIComponent("%_\\")}`, auth)
    expect(search.status).toBe(200)
  })

  it("answers unsupported content types and methods as client errors", async () => {
    expectClientError(
      await api.call("POST", "/api/auth/login", {
        raw: "email=a&password=b",
        headers: { "content-type": "text/plain" }
      })
    )
    expectClientError(await api.call("PATCH", "/api/auth/login", { body: {} }))
    expectClientError(
      await api.call("POST", "/api/auth/login", { raw: "", headers: { "content-type": "application/json" } })
    )
  })
})
