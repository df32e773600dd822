import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { platformAdmin } from "../support/selling"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const READERS_ONLY = (role: string) => roleRequired(["owner", "admin", "finance"], role)
const SUPERADMIN_ONLY = "Apenas operadores da plataforma (SuperAdmin) podem fazer isto."

let setup: TestCommunity
let people: Record<"admin" | "finance" | "moderator" | "member", { token: string }>
let operator: string
beforeAll(async () => {
  setup = await newCommunity(api, "Taxas")
  people = {
    admin: await setup.addMember("admin"),
    finance: await setup.addMember("finance"),
    moderator: await setup.addMember("moderator"),
    member: await setup.addMember("member")
  }
  operator = await platformAdmin(api)
})
const owner = () => as(setup.owner, setup.community)
const simulate = (body: unknown, options = owner()) => api.post("/api/fees/simulate", body, options)
const overridePath = (communityId: string, method: string) =>
  `/api/admin/communities/${communityId}/fee-overrides/${method}`

describe("GET /api/fees", () => {
  it("lists the defaults in force per method", async () => {
    const data = expectOk(await api.get("/api/fees", owner()), 200, "Taxas da comunidade.")
    expect(data).toMatchObject({
      communityId: setup.community.id,
      currency: "BRL",
      maxInstallments: 12,
      interestRateBps: 289
    })
    expect(data.methods).toEqual([
      {
        paymentMethod: "CREDIT_CARD",
        percentBps: 499,
        fixed: 49,
        maxInstallments: 12,
        interestRateBps: 289,
        releaseAfterDays: 30,
        overridden: false,
        updatedAt: null
      },
      {
        paymentMethod: "PIX",
        percentBps: 199,
        fixed: 0,
        maxInstallments: 1,
        interestRateBps: 0,
        releaseAfterDays: 0,
        overridden: false,
        updatedAt: null
      },
      {
        paymentMethod: "BOLETO",
        percentBps: 199,
        fixed: 249,
        maxInstallments: 1,
        interestRateBps: 0,
        releaseAfterDays: 1,
        overridden: false,
        updatedAt: null
      }
    ])
  })

  it("owner, admin and finance read; moderator and member do not", async () => {
    for (const role of ["admin", "finance"] as const) {
      expectOk(await api.get("/api/fees", as(people[role], setup.community)))
    }
    for (const role of ["moderator", "member"] as const) {
      expectError(await api.get("/api/fees", as(people[role], setup.community)), 403, READERS_ONLY(role))
    }
  })

  it("needs a token and the community header", async () => {
    expectError(await api.get("/api/fees", { community: setup.community.id }), 401)
    expectError(await api.get("/api/fees", { token: setup.owner.token }), 400)
  })

  it("speaks English on request", async () => {
    const reply = await api.get("/api/fees", { ...owner(), headers: { "accept-language": "en" } })
    expectOk(reply, 200, "Community fees.")
  })
})

describe("POST /api/fees/simulate", () => {
  it("R$ 100,00 in 2 card installments at 2.89 % is 2 × R$ 52,18", async () => {
    const data = expectOk(
      await simulate({ amount: 10000, paymentMethod: "CREDIT_CARD", installments: 2 }),
      200,
      "Simulação calculada."
    )
    expect(data).toMatchObject({
      amount: 10000,
      gross: 10000,
      currency: "BRL",
      paymentMethod: "CREDIT_CARD",
      installments: 2,
      interestRateBps: 289,
      installmentAmount: 5218,
      total: 10436,
      interest: 436,
      feePercentBps: 499,
      feeFixed: 49,
      fee: 548,
      net: 9452,
      releaseAfterDays: 30
    })
    expect(data.options.map((option: { installmentAmount: number }) => option.installmentAmount)).toEqual([
      10000,
      5218,
      3528,
      2683,
      2177,
      1839,
      1598,
      1418,
      1278,
      1166,
      1074,
      998
    ])
    expect(data.options[11]).toEqual({
      installments: 12,
      installmentAmount: 998,
      total: 11976,
      interest: 1976,
      interestRateBps: 289
    })
  })

  it("PIX and boleto: one installment, their own fees; installments default to 1", async () => {
    expect(expectOk(await simulate({ amount: 4990, paymentMethod: "PIX" }))).toMatchObject({
      installments: 1,
      installmentAmount: 4990,
      total: 4990,
      interest: 0,
      fee: 99,
      net: 4891,
      releaseAfterDays: 0,
      options: [{ installments: 1, installmentAmount: 4990, total: 4990, interest: 0, interestRateBps: 0 }]
    })
    expect(expectOk(await simulate({ amount: 4990, paymentMethod: "BOLETO" }))).toMatchObject({
      fee: 348,
      net: 4642,
      releaseAfterDays: 1
    })
  })

  it("a currency other than the community's may be simulated", async () => {
    const data = expectOk(await simulate({ amount: 10000, paymentMethod: "PIX", currency: "USD" }))
    expect(data).toMatchObject({ currency: "USD", fee: 199, net: 9801 })
  })

  it("refuses installments the method does not take", async () => {
    const pix = expectInvalid(await simulate({ amount: 10000, paymentMethod: "PIX", installments: 2 }), "installments")
    expect(pix.message).toContain("CREDIT_CARD")
    expectInvalid(await simulate({ amount: 10000, paymentMethod: "BOLETO", installments: 3 }), "installments")
    expectInvalid(await simulate({ amount: 10000, paymentMethod: "CREDIT_CARD", installments: 13 }), "installments")
    expectInvalid(await simulate({ amount: 10000, paymentMethod: "CREDIT_CARD", installments: 0 }), "installments")
    expectInvalid(await simulate({ amount: 1, paymentMethod: "CREDIT_CARD", installments: 3 }), "installments")
  })

  it("bad input answers 400 naming the field", async () => {
    expectInvalid(await simulate({ amount: -1, paymentMethod: "PIX" }), "amount")
    expectInvalid(await simulate({ amount: 10.5, paymentMethod: "PIX" }), "amount")
    expectInvalid(await simulate({ amount: "100", paymentMethod: "PIX" }), "amount")
    expectInvalid(await simulate({ paymentMethod: "PIX" }), "amount")
    expectInvalid(await simulate({ amount: 100, paymentMethod: "CASH" }), "paymentMethod")
    expectInvalid(await simulate({ amount: 100, paymentMethod: "PIX", currency: "brl" }), "currency")
    expectInvalid(await simulate({ amount: 100, paymentMethod: "CREDIT_CARD", installments: 2.5 }), "installments")
    expectError(await api.call("POST", "/api/fees/simulate", { ...owner(), raw: "{not json" }), 400)
  })

  it("owner, admin and finance simulate; moderator and member do not", async () => {
    const body = { amount: 10000, paymentMethod: "PIX" }
    for (const role of ["admin", "finance"] as const) expectOk(await simulate(body, as(people[role], setup.community)))
    for (const role of ["moderator", "member"] as const) {
      expectError(await simulate(body, as(people[role], setup.community)), 403, READERS_ONLY(role))
    }
  })
})

describe("fee overrides (SuperAdmin)", () => {
  it("an override changes the fees in force and the simulation; DELETE restores the defaults", async () => {
    const mine = await newCommunity(api, "Taxa Especial")
    const other = await newCommunity(api, "Taxa Normal")
    const scoped = as(mine.owner, mine.community)
    const saved = expectOk(
      await api.put(overridePath(mine.community.id, "CREDIT_CARD"), {
        percentBps: 100,
        fixed: 0,
        interestRateBps: 199
      }, { token: operator }),
      200,
      "Taxa personalizada salva."
    )
    expect(saved).toMatchObject({
      communityId: mine.community.id,
      paymentMethod: "CREDIT_CARD",
      percentBps: 100,
      fixed: 0,
      interestRateBps: 199,
      maxInstallments: 12,
      overridden: true
    })
    expect(typeof saved.updatedAt).toBe("string")

    const fees = expectOk(await api.get("/api/fees", scoped))
    expect(fees.interestRateBps).toBe(199)
    expect(fees.methods[0]).toMatchObject({ paymentMethod: "CREDIT_CARD", percentBps: 100, overridden: true })
    expect(fees.methods[1]).toMatchObject({ paymentMethod: "PIX", percentBps: 199, overridden: false })

    const body = { amount: 10000, paymentMethod: "CREDIT_CARD", installments: 2 }
    // 1.99 % a month: 100 · 0.0199 / (1 − 1.0199^−2) = 51.4975… → 51,50
    expect(expectOk(await api.post("/api/fees/simulate", body, scoped))).toMatchObject({
      interestRateBps: 199,
      installmentAmount: 5150,
      total: 10300,
      interest: 300,
      fee: 100,
      net: 9900
    })
    // another community keeps the defaults
    expect(expectOk(await api.post("/api/fees/simulate", body, as(other.owner, other.community)))).toMatchObject({
      installmentAmount: 5218,
      fee: 548
    })

    // replaced again without interest: the default rate comes back
    const again = expectOk(
      await api.put(overridePath(mine.community.id, "CREDIT_CARD"), { percentBps: 0, fixed: 10 }, { token: operator })
    )
    expect(again).toMatchObject({ percentBps: 0, fixed: 10, interestRateBps: 289, overridden: true })
    expect(expectOk(await api.post("/api/fees/simulate", body, scoped))).toMatchObject({
      installmentAmount: 5218,
      fee: 10,
      net: 9990
    })

    const removed = expectOk(
      await api.del(overridePath(mine.community.id, "CREDIT_CARD"), { token: operator }),
      200,
      "Taxa personalizada removida; valem as taxas padrão."
    )
    expect(removed).toMatchObject({ percentBps: 499, fixed: 49, interestRateBps: 289, overridden: false })
    expect(expectOk(await api.post("/api/fees/simulate", body, scoped))).toMatchObject({ fee: 548, net: 9452 })
    // removing again is harmless
    expectOk(await api.del(overridePath(mine.community.id, "CREDIT_CARD"), { token: operator }))
  })

  it("a PIX or boleto override changes only its method", async () => {
    const mine = await newCommunity(api, "Pix Barato")
    expectOk(await api.put(overridePath(mine.community.id, "PIX"), { percentBps: 0, fixed: 0 }, { token: operator }))
    const scoped = as(mine.owner, mine.community)
    expect(expectOk(await api.post("/api/fees/simulate", { amount: 10000, paymentMethod: "PIX" }, scoped)))
      .toMatchObject({ fee: 0, net: 10000 })
    expect(expectOk(await api.post("/api/fees/simulate", { amount: 10000, paymentMethod: "BOLETO" }, scoped)))
      .toMatchObject({ fee: 448 })
  })

  it("only platform operators; the community's owner is refused", async () => {
    const path = overridePath(setup.community.id, "PIX")
    expectError(await api.put(path, { percentBps: 0, fixed: 0 }, { token: setup.owner.token }), 403, SUPERADMIN_ONLY)
    expectError(await api.put(path, { percentBps: 0, fixed: 0 }, owner()), 403, SUPERADMIN_ONLY)
    expectError(await api.del(path, { token: setup.owner.token }), 403, SUPERADMIN_ONLY)
    expectError(await api.put(path, { percentBps: 0, fixed: 0 }), 401)
    expectError(await api.del(path), 401)
    // nothing changed
    expect(expectOk(await api.get("/api/fees", owner())).methods[1].overridden).toBe(false)
  })

  it("an unknown community answers 404", async () => {
    expectError(
      await api.put(overridePath(unknownId(), "PIX"), { percentBps: 0, fixed: 0 }, { token: operator }),
      404,
      "Comunidade não encontrada."
    )
    expectError(await api.del(overridePath(unknownId(), "PIX"), { token: operator }), 404)
  })

  it("validates the path and the body", async () => {
    const path = overridePath(setup.community.id, "PIX")
    expectInvalid(
      await api.put(overridePath("not-a-uuid", "PIX"), { percentBps: 0, fixed: 0 }, { token: operator }),
      "communityId",
      "params"
    )
    expectInvalid(
      await api.put(overridePath(setup.community.id, "CASH"), { percentBps: 0, fixed: 0 }, { token: operator }),
      "method",
      "params"
    )
    expectInvalid(await api.del(overridePath(setup.community.id, "pix"), { token: operator }), "method", "params")
    expectInvalid(await api.put(path, { percentBps: 10001, fixed: 0 }, { token: operator }), "percentBps")
    expectInvalid(await api.put(path, { percentBps: -1, fixed: 0 }, { token: operator }), "percentBps")
    expectInvalid(await api.put(path, { percentBps: 100 }, { token: operator }), "fixed")
    expectInvalid(await api.put(path, { percentBps: 100, fixed: 1.5 }, { token: operator }), "fixed")
    expectInvalid(
      await api.put(path, { percentBps: 100, fixed: 0, interestRateBps: 199 }, { token: operator }),
      "interestRateBps"
    )
    const card = overridePath(setup.community.id, "CREDIT_CARD")
    expectInvalid(
      await api.put(card, { percentBps: 100, fixed: 0, interestRateBps: 0 }, { token: operator }),
      "interestRateBps"
    )
    expectInvalid(
      await api.put(card, { percentBps: 100, fixed: 0, interestRateBps: 1001 }, { token: operator }),
      "interestRateBps"
    )
    expectError(await api.call("PUT", path, { token: operator, raw: "nope" }), 400)
    expect(expectOk(await api.get("/api/fees", owner())).methods.every((m: { overridden: boolean }) => !m.overridden))
      .toBe(true)
  })
})
