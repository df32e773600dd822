import { afterAll, describe, expect, it } from "vitest"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { approveBusiness, approvePayouts, businessInformation, platformAdmin, VALID_CPF } from "../support/selling"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const english = { "accept-language": "en" }
const PIX = { method: "PIX", pixKey: "financeiro@roda.test" }

type Subject = "business-information" | "payout-settings"
const bodyOf = (subject: Subject) => subject === "business-information" ? businessInformation() : PIX

/**
 * Moves the subject of a fresh community to `stage` through the routes: a status, or `EDITED` (an
 * approved record edited: PENDING until submitted again).
 */
const reach = async (subject: Subject, stage: string, made: TestCommunity) => {
  const scoped = as(made.owner, made.community)
  const operator = await platformAdmin(api)
  const decide = (action: string, body: unknown = {}) =>
    api.post(`/api/admin/communities/${made.community.id}/${subject}/${action}`, body, { token: operator })
  expectOk(await api.post(`/api/${subject}`, bodyOf(subject), scoped))
  if (stage === "DRAFT") return
  expectOk(await api.post(`/api/${subject}/submit`, {}, scoped))
  if (stage === "APPROVED" || stage === "EDITED") expectOk(await decide("approve"))
  if (stage === "REJECTED") expectOk(await decide("reject", { reason: "Documento ilegível" }))
  if (stage === "EDITED") expectOk(await api.post(`/api/${subject}`, bodyOf(subject), scoped))
}

/** Calls `action` as the owner (edit, submit) or as the operator (approve, reject). */
const act = async (subject: Subject, action: string, made: TestCommunity) => {
  const scoped = { ...as(made.owner, made.community), headers: english }
  if (action === "edit") return api.post(`/api/${subject}`, bodyOf(subject), scoped)
  if (action === "submit") return api.post(`/api/${subject}/submit`, {}, scoped)
  const body = action === "reject" ? { reason: "Documento ilegível" } : {}
  return api.post(`/api/admin/communities/${made.community.id}/${subject}/${action}`, body, {
    token: await platformAdmin(api),
    headers: english
  })
}

const EDITED = "PENDING (edited, needs submit again)"
const table: ReadonlyArray<readonly [string, string, string | ReadonlyArray<string>]> = [
  ["DRAFT", "edit", "DRAFT"],
  ["DRAFT", "submit", "PENDING"],
  ["DRAFT", "approve", ["edit", "submit"]],
  ["DRAFT", "reject", ["edit", "submit"]],
  ["PENDING", "edit", "PENDING"],
  ["PENDING", "submit", "PENDING"],
  ["PENDING", "approve", "APPROVED"],
  ["PENDING", "reject", "REJECTED"],
  ["APPROVED", "edit", "PENDING"],
  ["APPROVED", "submit", "PENDING"],
  ["APPROVED", "approve", ["edit", "submit"]],
  ["APPROVED", "reject", ["edit", "submit"]],
  ["REJECTED", "edit", "DRAFT"],
  ["REJECTED", "submit", "PENDING"],
  ["REJECTED", "approve", ["edit", "submit"]],
  ["REJECTED", "reject", ["edit", "submit"]],
  ["EDITED", "edit", "PENDING"],
  ["EDITED", "submit", "PENDING"],
  ["EDITED", "approve", ["edit", "submit"]],
  ["EDITED", "reject", ["edit", "submit"]]
]

describe.each<Subject>(["business-information", "payout-settings"])("%s lifecycle", (subject) => {
  it.each(table)("from %s, %s → %s", async (from, action, outcome) => {
    const made = await newCommunity(api)
    await reach(subject, from, made)
    const reply = await act(subject, action, made)
    const fromStatus = from === "EDITED" ? "PENDING" : from
    if (typeof outcome === "string") {
      expect(expectOk(reply).status).toBe(outcome)
    } else {
      const body = expectError(
        reply,
        409,
        `Cannot ${action} while the status is ${from === "EDITED" ? EDITED : from}. Allowed actions: ${
          outcome.join(", ")
        }.`
      )
      expect(body.errors[0].param).toBe("status")
    }
    const read = expectOk(await api.get(`/api/${subject}`, as(made.owner, made.community)))
    expect(read.status).toBe(typeof outcome === "string" ? outcome : fromStatus)
  })
})

describe("review dates and reasons", () => {
  it("keep submittedAt while an edit stays pending, and clear the reason when a rejected one is edited", async () => {
    const made = await newCommunity(api)
    const scoped = as(made.owner, made.community)
    await reach("business-information", "PENDING", made)
    const before = expectOk(await api.get("/api/business-information", scoped))
    const edited = expectOk(
      await api.post("/api/business-information", { ...businessInformation(), legalName: "Roda Nova" }, scoped)
    )
    expect(edited).toMatchObject({ status: "PENDING", legalName: "Roda Nova", submittedAt: before.submittedAt })
    const operator = await platformAdmin(api)
    const rejected = expectOk(
      await api.post(`/api/admin/communities/${made.community.id}/business-information/reject`, {
        reason: "  Falta o número  "
      }, { token: operator })
    )
    expect(rejected).toMatchObject({ status: "REJECTED", rejectionReason: "Falta o número" })
    expect(rejected.reviewedAt).not.toBeNull()
    const draft = expectOk(await api.post("/api/business-information", businessInformation(), scoped))
    expect(draft).toMatchObject({ status: "DRAFT", rejectionReason: null, submittedAt: null, reviewedAt: null })
  })
})

describe("what the review changes for selling", () => {
  it("checkout needs approved business information and payout settings, and an edit suspends them", async () => {
    const made = await newCommunity(api)
    const { community, owner } = made
    const scoped = as(owner, community)
    const config = () => api.get("/api/checkout/config", { community: community.id })
    expectError(await config(), 403, "Community must have approved business information to enable paid products")
    await reach("business-information", "PENDING", made)
    expectError(await config(), 403)
    const operator = await platformAdmin(api)
    expectOk(
      await api.post(`/api/admin/communities/${community.id}/business-information/approve`, {}, { token: operator })
    )
    expectError(await config(), 400, "Payment configuration has not been set up for this community")
    await approvePayouts(api, owner, community)
    expect(expectOk(await config())).toMatchObject({ currency: "BRL", country: "BR" })

    expectOk(await api.post("/api/business-information", businessInformation(), scoped))
    expectError(await config(), 403, "Community must have approved business information to enable paid products")
    expectOk(await api.post("/api/business-information/submit", {}, scoped))
    expectError(await config(), 403, "Community must have approved business information to enable paid products")
    expectOk(
      await api.post(`/api/admin/communities/${community.id}/business-information/approve`, {}, { token: operator })
    )
    expectOk(await config())

    expectOk(await api.post("/api/payout-settings", { method: "PIX", pixKey: VALID_CPF }, scoped))
    expectError(await config(), 400, "Payment configuration has not been set up for this community")
    expectOk(await api.post("/api/payout-settings/submit", {}, scoped))
    expectOk(await api.post(`/api/admin/communities/${community.id}/payout-settings/approve`, {}, { token: operator }))
    expectOk(await config())
  })

  it("publishing is refused while edited business information waits for approval again", async () => {
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    await approveBusiness(api, owner, community)
    const product = (title: string) =>
      api.post("/api/products", { type: "ONE_TIME", title, price: 1000, allowedPaymentMethods: ["PIX"] }, scoped)
    const first = expectOk(await product("Antes"), 201)
    expectOk(await api.post(`/api/products/${first.id}/publish`, {}, scoped))
    expectOk(await api.post("/api/business-information", businessInformation(), scoped))
    const second = expectOk(await product("Depois"), 201)
    expectError(
      await api.post(`/api/products/${second.id}/publish`, {}, scoped),
      403,
      "To publish and start selling, the community needs approved business information. Submit it for review and publish once it is approved."
    )
  })

  it("new products take the currency of the business information's country, whatever its status, else BRL", async () => {
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    const product = () =>
      api.post(
        "/api/products",
        { type: "ONE_TIME", title: "Curso", price: 1000, allowedPaymentMethods: ["PIX"] },
        scoped
      )
    expect(expectOk(await product(), 201).currency).toBe("BRL")
    const saved = expectOk(await api.post("/api/business-information", businessInformation("PT"), scoped))
    expect(saved).toMatchObject({ status: "DRAFT", currency: "EUR" })
    expect(expectOk(await product(), 201).currency).toBe("EUR")
  })
})

describe("review by platform operators", () => {
  it("is refused to anyone else, the community's owner included", async () => {
    const made = await newCommunity(api)
    const { community, owner } = made
    await reach("payout-settings", "PENDING", made)
    const finance = await made.addMember("finance")
    const stranger = await register(api)
    for (const user of [owner, finance, stranger]) {
      for (const action of ["approve", "reject"]) {
        expectError(
          await api.post(`/api/admin/communities/${community.id}/payout-settings/${action}`, { reason: "x" }, {
            token: user.token,
            headers: english
          }),
          403,
          "Only platform operators (SuperAdmin) may do this."
        )
      }
    }
    const status = expectOk(await api.get("/api/payout-settings/status", as(owner, community)))
    expect(status.status).toBe("PENDING")
  })

  it("validates the path and the reason, and answers 404 for unknown communities or nothing saved", async () => {
    const made = await newCommunity(api)
    const operator = { token: await platformAdmin(api) }
    const path = (id: string, rest: string) => `/api/admin/communities/${id}/${rest}`
    for (const rest of ["business-information/reject", "payout-settings/approve", "payout-settings/reject"]) {
      expectInvalid(await api.post(path("123", rest), { reason: "x" }, operator), "communityId", "params")
      expectError(await api.post(path(unknownId(), rest), { reason: "x" }, operator), 404)
      expectError(await api.post(path(made.community.id, rest), { reason: "x" }, operator), 404)
    }
    await reach("payout-settings", "PENDING", made)
    const reject = path(made.community.id, "payout-settings/reject")
    expectInvalid(await api.post(reject, { reason: "   " }, operator), "reason")
    expectInvalid(await api.post(reject, { reason: 42 }, operator), "reason")
    expectInvalid(await api.post(reject, {}, operator), "reason")
    const upper = path(made.community.id.toUpperCase(), "payout-settings/approve")
    expect(expectOk(await api.post(upper, {}, operator)).status).toBe("APPROVED")
  })

  it("e-mails every owner of the community, in the same transaction as the decision", async () => {
    const made = await newCommunity(api)
    const { community, owner } = made
    const coOwner = await made.addMember("owner")
    const admin = await made.addMember("admin")
    await reach("business-information", "PENDING", made)
    const operator = await platformAdmin(api)
    expectOk(
      await api.post(`/api/admin/communities/${community.id}/business-information/reject`, {
        reason: "CNPJ de outra empresa"
      }, { token: operator })
    )
    for (const recipient of [owner.email, coOwner.email]) {
      const mails = (await outboxFor(roda, recipient)).filter((m) => m.kind === "business-information-rejected")
      expect(mails).toHaveLength(1)
      expect(mails[0]).toMatchObject({ communityId: community.id })
      expect(mails[0]!.body).toContain("CNPJ de outra empresa")
    }
    // the admin hears of the invitation (issue 10 item 1), never of the review
    expect((await outboxFor(roda, admin.email)).filter((m) => m.kind.startsWith("business-information"))).toEqual([])
    // A refused move writes no e-mail.
    expectError(
      await api.post(`/api/admin/communities/${community.id}/business-information/approve`, {}, { token: operator }),
      409
    )
    expect((await outboxFor(roda, owner.email)).filter((m) => m.kind.startsWith("business-information"))).toHaveLength(
      1
    )
  })

  it("decides a submission once when operators answer at the same time", async () => {
    const made = await newCommunity(api)
    await reach("payout-settings", "PENDING", made)
    const operator = await platformAdmin(api)
    const replies = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        api.post(
          `/api/admin/communities/${made.community.id}/payout-settings/${index % 2 === 0 ? "approve" : "reject"}`,
          { reason: "Conta de terceiro" },
          { token: operator }
        ))
    )
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1)
    expect(replies.filter((reply) => reply.status === 409)).toHaveLength(7)
    const mails = (await outboxFor(roda, made.owner.email)).filter((m) => m.kind.startsWith("payout-settings"))
    expect(mails).toHaveLength(1)
  })
})

describe("saves at the same time", () => {
  it.each<Subject>(["business-information", "payout-settings"])(
    "keep one %s row, and a submit racing with edits is never undone",
    async (subject) => {
      const made = await newCommunity(api)
      const scoped = as(made.owner, made.community)
      const saves = await Promise.all(
        Array.from({ length: 10 }, () => api.post(`/api/${subject}`, bodyOf(subject), scoped))
      )
      for (const reply of saves) expect(expectOk(reply).status).toBe("DRAFT")
      const raced = await Promise.all([
        api.post(`/api/${subject}/submit`, {}, scoped),
        ...Array.from({ length: 5 }, () => api.post(`/api/${subject}`, bodyOf(subject), scoped))
      ])
      for (const reply of raced) expectOk(reply)
      expect(expectOk(await api.get(`/api/${subject}`, scoped)).status).toBe("PENDING")
    }
  )
})

describe("business information input", () => {
  const save = async (body: unknown) => {
    const { community, owner } = await newCommunity(api)
    return api.post("/api/business-information", body, as(owner, community))
  }
  const address = businessInformation().address

  it.each<readonly [string, Record<string, unknown>, string]>([
    ["no country", { country: undefined }, "country"],
    ["an unsupported country", { country: "ZZ" }, "country"],
    ["no legal name", { legalName: undefined }, "legalName"],
    ["a blank legal name", { legalName: "   " }, "legalName"],
    ["no tax id", { taxId: undefined }, "taxId"],
    ["a CPF-sized number with letters", { taxId: "529.982.247-2X" }, "taxId"],
    ["a bad e-mail", { email: "financeiro@" }, "email"],
    ["a bad phone", { phone: "call me" }, "phone"],
    ["an address without street", { address: { ...address, street: undefined } }, "address.street"],
    ["an address without postal code", { address: { ...address, postalCode: "" } }, "address.postalCode"],
    ["an address with an unknown country", { address: { ...address, country: "XX" } }, "address.country"],
    ["an address that is a string", { address: "Rua Augusta, 100" }, "address"]
  ])("refuses %s", async (_label, change, param) => {
    expectInvalid(await save({ ...businessInformation(), ...change }), param)
  })

  it("accepts the minimum of conventions.md, a lower-case country, and the optional address fields", async () => {
    const minimum = expectOk(await save({ country: "br", legalName: "Maria Silva", taxId: VALID_CPF }))
    expect(minimum).toMatchObject({
      country: "BR",
      taxId: "52998224725",
      taxIdType: "CPF",
      address: null,
      email: null,
      phone: null
    })
    const full = expectOk(
      await save({
        ...businessInformation(),
        address: { ...address, complement: "Sala 2", neighbourhood: "Consolação" }
      })
    )
    expect(full.address).toMatchObject({ complement: "Sala 2", neighbourhood: "Consolação", postalCode: "01304-000" })
  })

  it("reads the empty state before anything was saved, and the X-CommunityId must be a member's community", async () => {
    const { community, owner } = await newCommunity(api)
    expect(expectOk(await api.get("/api/business-information", as(owner, community)))).toMatchObject({
      configured: false,
      status: null,
      legalName: null,
      currency: null
    })
    expect(expectOk(await api.get("/api/payout-settings", as(owner, community)))).toMatchObject({
      configured: false,
      status: null,
      method: null
    })
    expectError(await api.post("/api/payout-settings/submit", {}, as(owner, community)), 404)
    expectError(await api.post("/api/business-information/submit", {}, as(owner, community)), 404)
    expect((await api.get("/api/business-information", { token: owner.token, community: "nope" })).status).toBe(400)
    expectError(await api.get("/api/business-information", { token: owner.token, community: unknownId() }), 403)
  })
})

describe("payout settings input and roles", () => {
  const bankAccount = {
    bankCode: "001",
    branch: "1234",
    accountNumber: "98765",
    accountType: "SAVINGS",
    holderName: "Maria Silva",
    holderTaxId: VALID_CPF
  }

  it.each<readonly [string, Record<string, unknown>, string]>([
    ["a bank code with letters", { bankCode: "0A1" }, "bankAccount.bankCode"],
    ["a long bank code", { bankCode: "0012" }, "bankAccount.bankCode"],
    ["a branch with letters", { branch: "12-A" }, "bankAccount.branch"],
    ["no account number", { accountNumber: undefined }, "bankAccount.accountNumber"],
    ["a two-digit account digit", { accountDigit: "12" }, "bankAccount.accountDigit"],
    ["an unknown account type", { accountType: "INVESTMENT" }, "bankAccount.accountType"],
    ["no holder name", { holderName: "" }, "bankAccount.holderName"],
    ["a holder CPF with a wrong check digit", { holderTaxId: "529.982.247-24" }, "bankAccount.holderTaxId"]
  ])("refuse a bank account with %s", async (_label, change, param) => {
    const { community, owner } = await newCommunity(api)
    const reply = await api.post("/api/payout-settings", {
      method: "BANK_ACCOUNT",
      bankAccount: { ...bankAccount, ...change }
    }, as(owner, community))
    expectInvalid(reply, param)
  })

  it.each([
    ["a phone with too few digits", "+55 11 9999"],
    ["a phone of another country", "+351 912 345 678"],
    ["a CNPJ with a wrong check digit", "11.222.333/0001-80"],
    ["a UUID-like key with a bad character", "123e4567-e89b-42d3-a456-42661417400g"],
    ["an e-mail without domain", "financeiro@roda"],
    ["a blank key", "   "]
  ])("refuse %s as a PIX key", async (_label, pixKey) => {
    const { community, owner } = await newCommunity(api)
    expectInvalid(await api.post("/api/payout-settings", { method: "PIX", pixKey }, as(owner, community)), "pixKey")
  })

  it("store an upper-case random key in lower case and drop the bank account when switching to PIX", async () => {
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    const bank = expectOk(await api.post("/api/payout-settings", { method: "BANK_ACCOUNT", bankAccount }, scoped))
    expect(bank).toMatchObject({ method: "BANK_ACCOUNT", pixKey: null, pixKeyType: null })
    expect(bank.bankAccount).toMatchObject({ holderTaxId: "52998224725", accountType: "SAVINGS" })
    const pix = expectOk(
      await api.post("/api/payout-settings", { method: "PIX", pixKey: "123E4567-E89B-42D3-A456-426614174000" }, scoped)
    )
    expect(pix).toMatchObject({
      method: "PIX",
      pixKey: "123e4567-e89b-42d3-a456-426614174000",
      pixKeyType: "RANDOM",
      bankAccount: null
    })
  })

  it("let owner and admin manage, finance read, and refuse moderators, members and outsiders", async () => {
    const made = await newCommunity(api)
    const { community } = made
    const [admin, finance, moderator, member] = await Promise.all([
      made.addMember("admin"),
      made.addMember("finance"),
      made.addMember("moderator"),
      made.addMember("member")
    ])
    expectOk(await api.post("/api/payout-settings", PIX, as(admin, community)))
    expectOk(await api.post("/api/payout-settings/submit", {}, as(admin, community)))
    for (const path of ["", "/status", "/prerequisites"]) {
      expectOk(await api.get(`/api/payout-settings${path}`, as(finance, community)))
      for (const [user, role] of [[moderator, "moderator"], [member, "member"]] as const) {
        expectError(
          await api.get(`/api/payout-settings${path}`, as(user, community)),
          403,
          roleRequired(["owner", "admin", "finance"], role)
        )
      }
    }
    for (const user of [finance, moderator, member]) {
      expectError(await api.post("/api/payout-settings", PIX, as(user, community)), 403)
      expectError(await api.post("/api/payout-settings/submit", {}, as(user, community)), 403)
    }
    const outsider = await register(api)
    expectError(await api.get("/api/payout-settings/prerequisites", as(outsider, community)), 403)
    expectError(await api.post("/api/payout-settings", PIX, { community: community.id }), 401)
  })
})
