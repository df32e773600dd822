import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, NOT_MEMBER } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId, UUID } from "../support/envelope"
import { type CallOptions, client, startRoda } from "../support/harness"
import {
  confirm,
  COUPON_NOT_FOUND,
  type CouponCommunity,
  couponCommunity,
  createCoupon,
  draftProduct,
  expireCoupon,
  INVALID_COUPON_ID,
  newCode,
  ownerOf,
  PRODUCT_NOT_FOUND,
  reserve
} from "./coupons-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const MANAGERS = (role: string) => roleRequired(["owner", "admin"], role)
const READERS = (role: string) => roleRequired(["owner", "admin", "finance"], role)
const FUTURE = "2031-01-01T00:00:00Z"

let setup: CouponCommunity
beforeAll(async () => {
  setup = await couponCommunity(api)
})
const owner = () => ownerOf(setup)
const asRole = (role: keyof CouponCommunity["people"]) => as(setup.people[role], setup.community)
const post = (body: unknown, options: CallOptions = owner()) => api.post("/api/coupons", body, options)

describe("POST /api/coupons", () => {
  it("creates a percent coupon: code upper-cased, active, nothing used", async () => {
    const code = newCode("summer-")
    const data = expectCreated201(await post({ code: `  ${code.toLowerCase()} `, percentOff: 15, name: "Verão" }))
    expect(data).toEqual({
      id: expect.stringMatching(UUID),
      communityId: setup.community.id,
      code: code.toUpperCase(),
      name: "Verão",
      percentOff: 15,
      amountOff: null,
      currency: null,
      duration: "once",
      durationMonths: null,
      applicableProducts: [],
      maxRedemptions: null,
      timesRedeemed: 0,
      reservedRedemptions: 0,
      redemptionsLeft: null,
      expiresAt: null,
      status: "active",
      createdAt: expect.any(String),
      updatedAt: expect.any(String)
    })
  })

  it("creates an amount coupon in the community's currency, repeating, limited and expiring", async () => {
    const product = await draftProduct(api, setup)
    const data = expectCreated201(
      await post({
        code: newCode(),
        amountOff: 2500,
        duration: "repeating",
        durationMonths: 3,
        applicableProducts: [product.id.toUpperCase(), product.id],
        maxRedemptions: 10,
        expiresAt: "2031-01-01T03:00:00-03:00"
      })
    )
    expect(data).toMatchObject({
      percentOff: null,
      amountOff: 2500,
      currency: "BRL",
      duration: "repeating",
      durationMonths: 3,
      applicableProducts: [product.id],
      maxRedemptions: 10,
      redemptionsLeft: 10,
      expiresAt: "2031-01-01T06:00:00.000Z",
      status: "active"
    })
  })

  it("keeps an explicit currency and a forever duration", async () => {
    const data = expectCreated201(await post({ code: newCode(), amountOff: 500, currency: "USD", duration: "forever" }))
    expect(data).toMatchObject({ amountOff: 500, currency: "USD", duration: "forever", durationMonths: null })
  })

  it("admin may create; finance, moderator and member may not", async () => {
    expectCreated201(await post({ code: newCode(), percentOff: 5 }, asRole("admin")))
    for (const role of ["finance", "moderator", "member"] as const) {
      expectError(await post({ code: newCode(), percentOff: 5 }, asRole(role)), 403, MANAGERS(role))
    }
    expectError(await post({ code: newCode(), percentOff: 5 }, asRole("outsider")), 403, NOT_MEMBER)
    expectError(await post({ code: newCode(), percentOff: 5 }, { community: setup.community.id }), 401)
    expectInvalid(
      await post({ code: newCode(), percentOff: 5 }, { token: setup.owner.token }),
      "X-CommunityId",
      "headers"
    )
  })

  it("refuses a code already used in the community, whatever its case (409); another community may use it", async () => {
    const code = newCode()
    await createCoupon(api, setup, { code })
    const body = expectError(await post({ code: code.toLowerCase(), percentOff: 20 }), 409)
    expect(body.errors[0].param).toBe("code")
    expectCreated201(await post({ code, percentOff: 20 }, ownerOf(setup.other)))
  })

  it("refuses malformed codes (400, param code)", async () => {
    for (const code of ["ab", "com espaço", "promo!", "x".repeat(41), unknownId(), 42, ""]) {
      expectInvalid(await post({ code, percentOff: 10 }), "code")
    }
    expectInvalid(await post({ percentOff: 10 }), "code")
  })

  it("wants exactly one kind of discount", async () => {
    expectInvalid(await post({ code: newCode() }), "percentOff")
    expectInvalid(await post({ code: newCode(), percentOff: null, amountOff: null }), "percentOff")
    expectInvalid(await post({ code: newCode(), percentOff: 10, amountOff: 100 }), "amountOff")
    expectInvalid(await post({ code: newCode(), percentOff: 10, currency: "BRL" }), "currency")
  })

  it("checks the ranges of percentOff, amountOff, currency, durationMonths and maxRedemptions", async () => {
    for (const percentOff of [0, 101, 12.5, -1, "10"]) {
      expectInvalid(await post({ code: newCode(), percentOff }), "percentOff")
    }
    for (const amountOff of [0, -1, 1.5, "100"]) expectInvalid(await post({ code: newCode(), amountOff }), "amountOff")
    expectInvalid(await post({ code: newCode(), amountOff: 100, currency: "brl" }), "currency")
    expectInvalid(await post({ code: newCode(), percentOff: 10, maxRedemptions: 0 }), "maxRedemptions")
    expectInvalid(await post({ code: newCode(), percentOff: 10, duration: "weekly" }), "duration")
    expectInvalid(
      await post({ code: newCode(), percentOff: 10, duration: "repeating", durationMonths: 0 }),
      "durationMonths"
    )
  })

  it("ties durationMonths to repeating", async () => {
    const missing = expectInvalid(
      await post({ code: newCode(), percentOff: 10, duration: "repeating" }),
      "durationMonths"
    )
    expect(missing.message).toBe("durationMonths é obrigatório quando duration é repeating.")
    expectInvalid(await post({ code: newCode(), percentOff: 10, durationMonths: 2 }), "durationMonths")
    expectInvalid(
      await post({ code: newCode(), percentOff: 10, duration: "forever", durationMonths: 2 }),
      "durationMonths"
    )
  })

  it("wants a future expiresAt with an offset", async () => {
    const past = expectInvalid(
      await post({ code: newCode(), percentOff: 10, expiresAt: "2020-01-01T00:00:00Z" }),
      "expiresAt"
    )
    expect(past.message).toBe("expiresAt deve estar no futuro.")
    expectInvalid(await post({ code: newCode(), percentOff: 10, expiresAt: "2031-01-01" }), "expiresAt")
    expectInvalid(await post({ code: newCode(), percentOff: 10, expiresAt: "soon" }), "expiresAt")
  })

  it("wants applicableProducts of this community that are not deleted", async () => {
    const foreign = await draftProduct(api, setup.other)
    const deleted = await draftProduct(api, setup)
    expectOk(await api.del(`/api/products/${deleted.id}`, owner()))
    for (const id of [unknownId(), foreign.id, deleted.id]) {
      const body = expectInvalid(
        await post({ code: newCode(), percentOff: 10, applicableProducts: [id] }),
        "applicableProducts"
      )
      expect(body.message).toBe(PRODUCT_NOT_FOUND)
    }
    const malformed = await post({ code: newCode(), percentOff: 10, applicableProducts: ["not-an-id"] })
    expectError(malformed, 400)
    expect(malformed.body.errors[0].param).toMatch(/^applicableProducts/)
    expectInvalid(await post({ code: newCode(), percentOff: 10, applicableProducts: "all" }), "applicableProducts")
  })

  it("answers 400 for a body that is not JSON", async () => {
    expectError(await api.call("POST", "/api/coupons", { raw: "{nope", ...owner() }), 400)
  })
})

describe("GET /api/coupons", () => {
  let listed: CouponCommunity
  let ids: Record<"active" | "inactive" | "expired" | "exhausted", string>
  beforeAll(async () => {
    listed = await couponCommunity(api, "Lista")
    const active = await createCoupon(api, listed)
    const inactive = await createCoupon(api, listed)
    expectOk(await api.patch(`/api/coupons/${inactive.id}/status`, { status: "inactive" }, ownerOf(listed)))
    const expired = await createCoupon(api, listed, { expiresAt: FUTURE })
    await expireCoupon(roda, expired.id)
    const exhausted = await createCoupon(api, listed, { maxRedemptions: 1 })
    const charge = await reserve(roda, listed.community.id, exhausted.id)
    if (charge._tag === "Right") await confirm(roda, listed.community.id, charge.right)
    ids = { active: active.id, inactive: inactive.id, expired: expired.id, exhausted: exhausted.id }
  })

  it("lists newest first with the effective status, page by page", async () => {
    const all = expectOk(await api.get("/api/coupons", ownerOf(listed)), 200, "Cupons encontrados.")
    expect(all.map((coupon: any) => coupon.id)).toEqual([ids.exhausted, ids.expired, ids.inactive, ids.active])
    expect(all.map((coupon: any) => coupon.status)).toEqual(["exhausted", "expired", "inactive", "active"])
    const first = await api.get("/api/coupons?limit=3", ownerOf(listed))
    expect(expectOk(first)).toHaveLength(3)
    const cursor = first.body.pagination.nextCursor
    expect(first.body.pagination).toEqual({ limit: 3, nextCursor: expect.any(String) })
    const second = await api.get(`/api/coupons?limit=3&cursor=${cursor}`, ownerOf(listed))
    expect(expectOk(second).map((coupon: any) => coupon.id)).toEqual([ids.active])
    expect(second.body.pagination.nextCursor).toBeNull()
  })

  it("filters by effective status", async () => {
    for (const status of ["active", "inactive", "expired", "exhausted"] as const) {
      const data = expectOk(await api.get(`/api/coupons?status=${status}`, ownerOf(listed)))
      expect(data.map((coupon: any) => coupon.id)).toEqual([ids[status]])
    }
    expectInvalid(await api.get("/api/coupons?status=paused", ownerOf(listed)), "status", "query")
  })

  it("refuses bad pagination", async () => {
    expectInvalid(await api.get("/api/coupons?limit=0", ownerOf(listed)), "limit", "query")
    expectInvalid(await api.get("/api/coupons?limit=101", ownerOf(listed)), "limit", "query")
    expectInvalid(await api.get("/api/coupons?cursor=garbage", ownerOf(listed)), "cursor", "query")
  })

  it("admin and finance read; moderator and member do not; other communities see their own", async () => {
    expect(expectOk(await api.get("/api/coupons", as(listed.people.admin, listed.community)))).toHaveLength(4)
    expect(expectOk(await api.get("/api/coupons", as(listed.people.finance, listed.community)))).toHaveLength(4)
    for (const role of ["moderator", "member"] as const) {
      expectError(await api.get("/api/coupons", as(listed.people[role], listed.community)), 403, READERS(role))
    }
    expectError(await api.get("/api/coupons", as(listed.people.outsider, listed.community)), 403, NOT_MEMBER)
    expect(expectOk(await api.get("/api/coupons", ownerOf(listed.other)))).toEqual([])
  })
})

describe("GET /api/coupons/{idOrCode}", () => {
  it("finds a coupon by id or by code, in any case", async () => {
    const coupon = await createCoupon(api, setup)
    expect(expectOk(await api.get(`/api/coupons/${coupon.id}`, owner()), 200, "Cupom encontrado.")).toEqual(coupon)
    expect(expectOk(await api.get(`/api/coupons/${coupon.id.toUpperCase()}`, owner())).id).toBe(coupon.id)
    expect(expectOk(await api.get(`/api/coupons/${coupon.code.toLowerCase()}`, owner())).id).toBe(coupon.id)
    expect(expectOk(await api.get(`/api/coupons/${coupon.code}`, asRole("finance"))).id).toBe(coupon.id)
    expect(expectOk(await api.get(`/api/coupons/${coupon.code}`, asRole("admin"))).id).toBe(coupon.id)
  })

  it("moderator and member may not read it; a non-member is not a member", async () => {
    const coupon = await createCoupon(api, setup)
    for (const role of ["moderator", "member"] as const) {
      expectError(await api.get(`/api/coupons/${coupon.id}`, asRole(role)), 403, READERS(role))
    }
    expectError(await api.get(`/api/coupons/${coupon.id}`, asRole("outsider")), 403, NOT_MEMBER)
  })

  it("another community's coupon, an unknown one and a deleted one are not found", async () => {
    const foreign = await createCoupon(api, setup.other)
    expectError(await api.get(`/api/coupons/${foreign.id}`, owner()), 404, COUPON_NOT_FOUND)
    expectError(await api.get(`/api/coupons/${foreign.code}`, owner()), 404, COUPON_NOT_FOUND)
    expectError(await api.get(`/api/coupons/${unknownId()}`, owner()), 404, COUPON_NOT_FOUND)
    expectError(await api.get(`/api/coupons/${newCode()}`, owner()), 404, COUPON_NOT_FOUND)
    const deleted = await createCoupon(api, setup)
    expectOk(await api.del(`/api/coupons/${deleted.id}`, owner()))
    expectError(await api.get(`/api/coupons/${deleted.code}`, owner()), 404, COUPON_NOT_FOUND)
  })

  it("refuses what is neither an id nor a code (400, param id)", async () => {
    for (const value of ["ab", "a%20b", "promo!", "x".repeat(41)]) {
      expectInvalid(await api.get(`/api/coupons/${value}`, owner()), "id", "params")
    }
  })
})

describe("DELETE /api/coupons/{id}", () => {
  it("removes the coupon (soft): gone from lookups, its code free again", async () => {
    const coupon = await createCoupon(api, setup)
    expectOk(await api.del(`/api/coupons/${coupon.id}`, owner()), 200, "Cupom removido com sucesso.")
    expectError(await api.get(`/api/coupons/${coupon.id}`, owner()), 404, COUPON_NOT_FOUND)
    const list = expectOk(await api.get("/api/coupons?limit=100", owner()))
    expect(list.map((item: any) => item.id)).not.toContain(coupon.id)
    expectError(await api.del(`/api/coupons/${coupon.id}`, owner()), 404, COUPON_NOT_FOUND)
    expectCreated201(await post({ code: coupon.code, percentOff: 30 }))
  })

  it("admin may remove; finance, moderator and member may not", async () => {
    const coupon = await createCoupon(api, setup)
    for (const role of ["finance", "moderator", "member"] as const) {
      expectError(await api.del(`/api/coupons/${coupon.id}`, asRole(role)), 403, MANAGERS(role))
    }
    expectError(await api.del(`/api/coupons/${coupon.id}`, asRole("outsider")), 403, NOT_MEMBER)
    expectOk(await api.del(`/api/coupons/${coupon.id}`, asRole("admin")))
  })

  it("another community's coupon is not found; a malformed id is 400", async () => {
    const foreign = await createCoupon(api, setup.other)
    expectError(await api.del(`/api/coupons/${foreign.id}`, owner()), 404, COUPON_NOT_FOUND)
    expect(expectOk(await api.get(`/api/coupons/${foreign.id}`, ownerOf(setup.other))).id).toBe(foreign.id)
    const malformed = expectInvalid(await api.del("/api/coupons/not-a-uuid", owner()), "id", "params")
    expect(malformed.message).toBe(INVALID_COUPON_ID)
  })
})

describe("the contract", () => {
  const couponRoutes = [
    ["get", "/api/coupons"],
    ["post", "/api/coupons"],
    ["get", "/api/coupons/{id}"],
    ["post", "/api/coupons/validate"],
    ["get", "/api/coupons/{id}/usage"],
    ["put", "/api/coupons/{id}"],
    ["delete", "/api/coupons/{id}"],
    ["patch", "/api/coupons/{id}/status"]
  ] as const

  it("documents every coupon route of the spec, each with its decisions", async () => {
    const doc = (await api.get("/api/openapi.json")).body
    for (const [method, path] of couponRoutes) {
      const operation = doc.paths[path]?.[method]
      expect(operation, `${method} ${path}`).toBeDefined()
      expect(operation.description.length, `${method} ${path}`).toBeGreaterThan(80)
    }
  })

  it("answers the old community-prefixed paths with 404", async () => {
    expectError(await api.get(`/api/communities/${setup.community.id}/coupons`, owner()), 404)
  })

  it("never answers odd input with a 5xx", async () => {
    const replies = [
      await api.get("/api/coupons/%ZZ", owner()),
      await api.get(`/api/coupons/${"a".repeat(5000)}`, owner()),
      await api.get("/api/coupons?limit=abc", owner()),
      await post({ code: newCode(), percentOff: 1e20 }),
      await post({ code: newCode(), amountOff: Number.MAX_SAFE_INTEGER }),
      await post({ code: newCode(), percentOff: 10, maxRedemptions: 1e12 }),
      await post({ code: newCode(), percentOff: 10, applicableProducts: Array.from({ length: 101 }, unknownId) }),
      await post({ code: newCode(), percentOff: 10, name: "a\u0000b" }),
      await post([]),
      await post(null),
      await api.post("/api/coupons/validate", { code: "x".repeat(101), productId: unknownId() }, owner()),
      await api.post("/api/coupons/validate", { code: "X", productId: unknownId(), amount: 1e15 }, owner())
    ]
    for (const reply of replies) {
      expect(reply.status, JSON.stringify(reply.body)).toBeGreaterThanOrEqual(400)
      expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(500)
    }
  })

  it("stores an empty name as none", async () => {
    expect(expectCreated201(await post({ code: newCode(), percentOff: 10, name: "  " })).name).toBeNull()
  })
})

function expectCreated201(reply: Parameters<typeof expectOk>[0]) {
  const data = expectOk(reply, 201, "Cupom criado com sucesso.")
  expect(data.id).toMatch(UUID)
  return data
}
