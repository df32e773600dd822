import { describe, expect, it } from "vitest"
import { classify, classifyRefusedWrite, describeFinding, type Probe } from "../../../scripts/sweep/classify.mjs"
import { rolesAllowed } from "../../../scripts/sweep/roles.mjs"

/**
 * The negative control of the black-box sweep (scripts/sweep.mjs): each kind of finding it reports is
 * shown to fire on a planted answer (and not on a harmless one), so a clean run means something.
 */
const other = {
  marker: "markB0123456789",
  ids: new Set(["0190a3c2-0000-7000-8000-00000000000b", "0190a3c2-0000-7000-8000-0000000000bb"])
}
const [otherId, otherSecondId] = [...other.ids]
const probe: Probe = { pass: "cross", method: "GET", path: "/api/sections", role: "owner of A" }

describe("the sweep's classification (negative control)", () => {
  it("reports a 5xx, and a reset connection counted as 599", () => {
    const found = classify(probe, { status: 500, text: "{}", body: { success: false, message: "Erro interno" } })
    expect(found.map((f) => f.reason)).toEqual(["server error"])
    expect(describeFinding(found[0]!)).toBe(
      "[cross] GET /api/sections as owner of A -> 500 server error: {\"success\":false,\"message\":\"Erro interno\"}"
    )
    expect(classify(probe, { status: 599, text: "the request failed" })[0]?.reason).toBe("server error")
    expect(classify(probe, { status: 404, text: "{}", body: { success: false } })).toEqual([])
  })

  it("reports an /api error without the envelope", () => {
    expect(classify(probe, { status: 400, text: "{}", body: { error: "bad" } })[0]?.reason)
      .toBe("error without the envelope")
  })

  it("reports a cross-community read: the other community's marker or id in any answer", () => {
    const marked = classify(probe, { status: 200, text: `[{"title":"Section ${other.marker}"}]` }, other)
    expect(marked[0]?.reason).toBe(
      `cross-community read: the answer holds the other community's marker ${other.marker}`
    )
    const byId = classify(probe, { status: 403, text: `{"data":{"id":"${otherId}"}}` }, other)
    expect(byId[0]?.reason).toBe(`cross-community read: the answer holds the other community's id ${otherId}`)
    expect(classify(probe, { status: 200, text: "[{\"title\":\"Section markA999\"}]" }, other)).toEqual([])
  })

  it("leaves out only the routes public by design (a certificate verified by its code)", () => {
    const verify: Probe = {
      ...probe,
      operation: "GET /api/certificates/verify/{code}",
      path: "/api/certificates/verify/ABCD",
      otherIdInPath: true
    }
    expect(classify(verify, { status: 200, text: `{"title":"${other.marker}"}` }, other)).toEqual([])
    expect(classify({ ...verify, operation: "GET /api/certificates/{id}" }, { status: 200, text: other.marker }, other))
      .toHaveLength(1)
  })

  it("lets an error echo the id the caller sent, but not another of the other community's", () => {
    const sent: Probe = { ...probe, method: "PUT", path: `/api/sections/${otherId}`, otherIdInPath: true }
    expect(classify(sent, { status: 404, text: `{"message":"Section ${otherId} not found"}` }, other)).toEqual([])
    const more = classify(sent, { status: 404, text: `{"message":"${otherId} is in ${otherSecondId}"}` }, other)
    expect(more[0]?.reason).toMatch(/holds the other community's id/)
  })

  it("reports a 2xx on the other community's resource even when nothing of it is in the answer", () => {
    const removal: Probe = { ...probe, method: "DELETE", path: `/api/sections/${otherId}`, otherIdInPath: true }
    expect(classify(removal, { status: 204, text: "" }, other)[0]?.reason)
      .toBe("answered 2xx on another community's resource (must be 404)")
    expect(classify(removal, { status: 404, text: "{\"success\":false}", body: { success: false } }, other))
      .toEqual([])
  })

  it("reports a refused write that changed what the owner reads, and nothing when it changed nothing", () => {
    const write: Probe = { pass: "roles", method: "PUT", path: "/api/sections/x", role: "member" }
    const before = new Map([["/api/sections", "200 [a]"], ["/api/sections/x", "200 {a}"]])
    const changed = new Map([["/api/sections", "200 [b]"], ["/api/sections/x", "200 {a}"]])
    const refused = { status: 403, text: "{}", body: { success: false } }
    expect(classifyRefusedWrite(write, refused, before, changed)[0]?.reason)
      .toBe("refused with 403 yet changed /api/sections")
    expect(classifyRefusedWrite(write, refused, before, new Map(before))).toEqual([])
    // a write that was allowed may change state
    expect(classifyRefusedWrite(write, { status: 200, text: "{}" }, before, changed)).toEqual([])
  })
})

describe("rolesAllowed (the roles a description admits)", () => {
  it.each([
    ["Owner or admin.", "PUT", ["owner", "admin"]],
    ["Owner, admin or moderator (403 otherwise). Partial.", "PUT", ["owner", "admin", "moderator"]],
    ["Owner or admin (403 `Função necessária: owner ou admin. Sua função: …`). Lists.", "GET", ["owner", "admin"]],
    ["Owner or admin (403 otherwise; finance reads only). Reads.", "GET", ["owner", "admin", "finance"]],
    ["Owner or admin (403 otherwise; finance reads only). Writes.", "POST", ["owner", "admin"]],
    ["Member. Any member.", "GET", ["owner", "admin", "moderator", "finance", "member"]],
    ["SuperAdmin only (403 otherwise); no X-CommunityId.", "POST", []]
  ])("%s (%s)", (description, method, roles) => {
    expect([...rolesAllowed(description, method)!].sort()).toEqual([...roles].sort())
  })

  it.each([
    "Owner or admin (only an owner removes an owner), or the holder leaving.",
    "Owner, admin, moderator or the event's host (403 otherwise).",
    "Public (token optional).",
    "The author, or owner, admin or moderator (others 403)."
  ])("has no plain list in %s", (description) => {
    expect(rolesAllowed(description, "PUT")).toBeUndefined()
  })
})
