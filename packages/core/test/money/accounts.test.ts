import { afterAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "../support/community"
import { expectError, expectInvalid, expectOk, roleRequired, unknownId } from "../support/envelope"
import { client, register, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import {
  approveBusiness,
  approvePayouts,
  businessInformation,
  platformAdmin,
  VALID_CNPJ,
  VALID_CPF
} from "../support/selling"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const admin = (path: string, body: unknown, token: string) =>
  api.post(`/api/admin/communities/${path}`, body, { token })

describe("business information", () => {
  it("is saved as draft, submitted, approved by an operator, and the owner is e-mailed", async () => {
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    expect(expectOk(await api.get("/api/business-information", scoped))).toMatchObject({ status: null })
    const saved = expectOk(await api.post("/api/business-information", businessInformation(), scoped))
    expect(saved).toMatchObject({
      status: "DRAFT",
      country: "BR",
      currency: "BRL",
      taxId: "11222333000181",
      taxIdType: "CNPJ",
      submittedAt: null
    })
    const submitted = expectOk(await api.post("/api/business-information/submit", {}, scoped))
    expect(submitted.status).toBe("PENDING")
    expect(submitted.submittedAt).not.toBeNull()
    const operator = await platformAdmin(api)
    const approved = expectOk(await admin(`${community.id}/business-information/approve`, {}, operator))
    expect(approved).toMatchObject({ status: "APPROVED", rejectionReason: null })
    expect(approved.reviewedAt).not.toBeNull()
    expect(expectOk(await api.get("/api/business-information", scoped)).status).toBe("APPROVED")
    const mails = await outboxFor(roda, owner.email)
    expect(mails.map((mail) => mail.kind)).toContain("business-information-approved")
  })

  it("rejects with a reason; editing goes back to DRAFT; editing approved information goes back to PENDING", async () => {
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    const operator = await platformAdmin(api)
    expectOk(await api.post("/api/business-information", businessInformation(), scoped))
    expectOk(await api.post("/api/business-information/submit", {}, scoped))
    expectInvalid(await admin(`${community.id}/business-information/reject`, {}, operator), "reason")
    const rejected = expectOk(
      await admin(`${community.id}/business-information/reject`, { reason: "Contrato social ilegível" }, operator)
    )
    expect(rejected).toMatchObject({ status: "REJECTED", rejectionReason: "Contrato social ilegível" })
    const rejectionMail = (await outboxFor(roda, owner.email)).find((m) => m.kind === "business-information-rejected")
    expect(rejectionMail?.body).toContain("Contrato social ilegível")
    expect(expectOk(await api.post("/api/business-information", businessInformation(), scoped)).status).toBe("DRAFT")
    expectOk(await api.post("/api/business-information/submit", {}, scoped))
    expectOk(await admin(`${community.id}/business-information/approve`, {}, operator))
    const edited = expectOk(
      await api.post("/api/business-information", { ...businessInformation(), legalName: "Roda Educação" }, scoped)
    )
    expect(edited).toMatchObject({ status: "PENDING", legalName: "Roda Educação", needsSubmit: true })
    const prerequisites = expectOk(await api.get("/api/payout-settings/prerequisites", scoped))
    expect(prerequisites.map((item: { code: string }) => item.code)).toEqual([
      "BUSINESS_INFORMATION_NOT_SUBMITTED",
      "PAYOUT_SETTINGS_MISSING"
    ])
    expectOk(await api.post("/api/business-information/submit", {}, scoped))
    const queued = expectOk(await api.get("/api/payout-settings/prerequisites", scoped))
    expect(queued.map((item: { code: string }) => item.code)).toEqual([
      "BUSINESS_INFORMATION_UNDER_REVIEW",
      "PAYOUT_SETTINGS_MISSING"
    ])
  })

  it("answers 409 with the allowed actions for operator decisions the lifecycle does not have", async () => {
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    const operator = await platformAdmin(api)
    expectError(await api.post("/api/business-information/submit", {}, scoped), 404)
    expectOk(await api.post("/api/business-information", businessInformation(), scoped))
    const early = expectError(await admin(`${community.id}/business-information/approve`, {}, operator), 409)
    expect(early.errors[0].param).toBe("status")
    expect(early.message).toContain("edit, submit")
    expectOk(await api.post("/api/business-information/submit", {}, scoped))
    expectOk(await api.post("/api/business-information/submit", {}, scoped))
    expectOk(await admin(`${community.id}/business-information/approve`, {}, operator))
    expectError(await admin(`${community.id}/business-information/approve`, {}, operator), 409)
  })

  it.each([
    ["CNPJ with punctuation", VALID_CNPJ, 200],
    ["CNPJ digits only", "11222333000181", 200],
    ["CPF", VALID_CPF, 200],
    ["CPF digits only", "52998224725", 200],
    ["CNPJ with a wrong check digit", "11.222.333/0001-82", 400],
    ["CPF with a wrong check digit", "529.982.247-24", 400],
    ["repeated digits", "111.111.111-11", 400],
    ["too short", "1234567", 400],
    ["letters", "ABC.DEF.GHI-JK", 400],
    ["alphanumeric CNPJ (IN RFB 2.229/2024)", "12.ABC.345/01DE-35", 200],
    ["alphanumeric CNPJ in lower case", "12.abc.345/01de-35", 200],
    ["alphanumeric CNPJ with a wrong check digit", "12.ABC.345/01DE-34", 400]
  ])("checks Brazilian tax ids: %s", async (_label, taxId, status) => {
    const { community, owner } = await newCommunity(api)
    const reply = await api.post("/api/business-information", { ...businessInformation(), taxId }, as(owner, community))
    if (status === 200) expectOk(reply)
    else expectInvalid(reply, "taxId")
  })

  it("takes any tax id outside Brazil, and the country decides the currency", async () => {
    const { community, owner } = await newCommunity(api)
    const saved = expectOk(
      await api.post("/api/business-information", businessInformation("PT"), as(owner, community))
    )
    expect(saved).toMatchObject({ country: "PT", currency: "EUR", taxIdType: null })
  })

  it("validates the body, naming each field", async () => {
    const { community, owner } = await newCommunity(api)
    const reply = await api.post("/api/business-information", {
      country: "XX",
      legalName: "",
      taxId: VALID_CNPJ,
      email: "not-an-email",
      address: { street: "Rua" }
    }, as(owner, community))
    const body = expectInvalid(reply, "country")
    const params = body.errors.map((error: { param: string }) => error.param)
    expect(params).toEqual(expect.arrayContaining(["legalName", "email"]))
    expectInvalid(await api.post("/api/business-information", [], as(owner, community)), "body")
  })

  it("lets owner and admin manage, finance read, and refuses moderators, members and outsiders", async () => {
    const made = await newCommunity(api)
    const { community, owner } = made
    const [adminUser, finance, moderator, member] = await Promise.all([
      made.addMember("admin"),
      made.addMember("finance"),
      made.addMember("moderator"),
      made.addMember("member")
    ])
    expectOk(await api.post("/api/business-information", businessInformation(), as(adminUser, community)))
    expectOk(await api.get("/api/business-information", as(finance, community)))
    expectOk(await api.get("/api/payout-settings/status", as(finance, community)))
    expectError(
      await api.post("/api/business-information", businessInformation(), as(finance, community)),
      403,
      roleRequired(["owner", "admin"], "finance")
    )
    expectError(
      await api.get("/api/business-information", as(moderator, community)),
      403,
      roleRequired(["owner", "admin", "finance"], "moderator")
    )
    expectError(await api.post("/api/business-information/submit", {}, as(member, community)), 403)
    const outsider = await register(api)
    expectError(await api.get("/api/business-information", as(outsider, community)), 403)
    expectError(await api.get("/api/business-information", { community: community.id }), 401)
    expectOk(await api.post("/api/business-information/submit", {}, as(owner, community)))
  })
})

describe("review by platform operators", () => {
  it("is for SuperAdmin only, names the community in the path, and validates it", async () => {
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    expectOk(await api.post("/api/business-information", businessInformation(), scoped))
    expectOk(await api.post("/api/business-information/submit", {}, scoped))
    expectError(await admin(`${community.id}/business-information/approve`, {}, owner.token), 403)
    expectError(await api.post(`/api/admin/communities/${community.id}/business-information/approve`, {}), 401)
    const operator = await platformAdmin(api)
    expectInvalid(await admin("not-a-uuid/business-information/approve", {}, operator), "communityId", "params")
    expectError(await admin(`${unknownId()}/business-information/approve`, {}, operator), 404)
    expectError(await admin(`${community.id}/payout-settings/approve`, {}, operator), 404)
  })
})

describe("payout settings", () => {
  it.each([
    ["e-mail", "Financeiro@Roda.test", "EMAIL", "financeiro@roda.test"],
    ["phone", "+55 (11) 99999-0000", "PHONE", "+5511999990000"],
    ["CPF", VALID_CPF, "CPF", "52998224725"],
    ["CNPJ", VALID_CNPJ, "CNPJ", "11222333000181"],
    ["random key", "123e4567-e89b-42d3-a456-426614174000", "RANDOM", "123e4567-e89b-42d3-a456-426614174000"]
  ])("accept a PIX key of kind %s", async (_label, pixKey, type, stored) => {
    const { community, owner } = await newCommunity(api)
    const saved = expectOk(await api.post("/api/payout-settings", { method: "PIX", pixKey }, as(owner, community)))
    expect(saved).toMatchObject({ method: "PIX", pixKeyType: type, pixKey: stored, status: "DRAFT" })
  })

  it.each([["not a key"], ["+1 555 0100"], ["529.982.247-24"], ["12345"]])("refuse the PIX key %s", async (pixKey) => {
    const { community, owner } = await newCommunity(api)
    expectInvalid(await api.post("/api/payout-settings", { method: "PIX", pixKey }, as(owner, community)), "pixKey")
  })

  it("takes a bank account and checks its fields and holder", async () => {
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    const bankAccount = {
      bankCode: "341",
      branch: "0001",
      accountNumber: "123456",
      accountDigit: "7",
      accountType: "CHECKING",
      holderName: "Roda Cursos Ltda",
      holderTaxId: VALID_CNPJ
    }
    const saved = expectOk(await api.post("/api/payout-settings", { method: "BANK_ACCOUNT", bankAccount }, scoped))
    expect(saved.bankAccount).toMatchObject({ bankCode: "341", holderTaxId: "11222333000181" })
    expectInvalid(await api.post("/api/payout-settings", { method: "BANK_ACCOUNT" }, scoped), "bankAccount")
    expectInvalid(
      await api.post("/api/payout-settings", {
        method: "BANK_ACCOUNT",
        bankAccount: { ...bankAccount, holderTaxId: "123" }
      }, scoped),
      "bankAccount.holderTaxId"
    )
    expectInvalid(
      await api.post("/api/payout-settings", {
        method: "BANK_ACCOUNT",
        bankAccount: { ...bankAccount, bankCode: "34" }
      }, scoped),
      "bankAccount.bankCode"
    )
    expectInvalid(await api.post("/api/payout-settings", { method: "PIX" }, scoped), "pixKey")
    expectInvalid(await api.post("/api/payout-settings", { method: "CASH" }, scoped), "method")
  })

  it("go through review; status and prerequisites follow", async () => {
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    expect(expectOk(await api.get("/api/payout-settings/status", scoped))).toMatchObject({
      configured: false,
      status: null
    })
    expect(expectOk(await api.get("/api/payout-settings/prerequisites", scoped)).map((i: any) => i.code)).toEqual([
      "BUSINESS_INFORMATION_MISSING",
      "PAYOUT_SETTINGS_MISSING"
    ])
    await approveBusiness(api, owner, community)
    expectOk(await api.post("/api/payout-settings", { method: "PIX", pixKey: VALID_CPF }, scoped))
    expect(expectOk(await api.get("/api/payout-settings/prerequisites", scoped))).toEqual([
      { code: "PAYOUT_SETTINGS_NOT_SUBMITTED", message: "Envie as configurações de repasse para análise." }
    ])
    expectOk(await api.post("/api/payout-settings/submit", {}, scoped))
    const operator = await platformAdmin(api)
    expectOk(await admin(`${community.id}/payout-settings/reject`, { reason: "Chave de outro titular" }, operator))
    const english = await api.get("/api/payout-settings/prerequisites", {
      ...scoped,
      headers: { "accept-language": "en" }
    })
    expect(expectOk(english)).toEqual([
      { code: "PAYOUT_SETTINGS_REJECTED", message: "The payout settings were rejected: Chave de outro titular" }
    ])
    expect((await outboxFor(roda, owner.email)).map((m) => m.kind)).toContain("payout-settings-rejected")
    await approvePayouts(api, owner, community)
    expect(expectOk(await api.get("/api/payout-settings/status", scoped))).toMatchObject({
      configured: true,
      status: "APPROVED"
    })
    expect(expectOk(await api.get("/api/payout-settings/prerequisites", scoped))).toEqual([])
    expect((await outboxFor(roda, owner.email)).map((m) => m.kind)).toContain("payout-settings-approved")
    const edited = expectOk(await api.post("/api/payout-settings", { method: "PIX", pixKey: VALID_CNPJ }, scoped))
    expect(edited.status).toBe("PENDING")
  })

  it("are kept apart per community", async () => {
    const first = await newCommunity(api)
    const second = await newCommunity(api)
    expectOk(
      await api.post("/api/payout-settings", { method: "PIX", pixKey: VALID_CPF }, as(first.owner, first.community))
    )
    expect(expectOk(await api.get("/api/payout-settings", as(second.owner, second.community)))).toMatchObject({
      communityId: second.community.id,
      configured: false,
      pixKey: null
    })
    expectError(await api.get("/api/payout-settings", as(second.owner, first.community)), 403)
  })
})
