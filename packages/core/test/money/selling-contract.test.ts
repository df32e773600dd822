import { afterAll, describe, expect, it } from "vitest"
import {
  ADD_ON_IS_OPTION,
  catalogueCommunity,
  createPlan,
  draftOption,
  draftProduct
} from "../commerce/catalogue-support"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { approveBusiness, approvePayouts, businessInformation, platformAdmin, VALID_CPF } from "../support/selling"

/** Issue 10 items 13, 14 and 16: the selling contract of spec §2 and §3. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Subject = "business-information" | "payout-settings"
const PIX = { method: "PIX", pixKey: "financeiro@roda.test" }
const bodyOf = (subject: Subject) => subject === "business-information" ? businessInformation() : PIX
const decide = async (made: TestCommunity, subject: Subject, action: "approve" | "reject") =>
  api.post(
    `/api/admin/communities/${made.community.id}/${subject}/${action}`,
    action === "reject" ? { reason: "Documento ilegível" } : {},
    { token: await platformAdmin(api) }
  )
const codes = (items: ReadonlyArray<{ code: string }>) => items.map((item) => item.code)

describe.each<Subject>(["business-information", "payout-settings"])("%s (spec §3)", (subject) => {
  it("answers 200 with an empty state before anything is saved", async () => {
    const made = await newCommunity(api)
    const empty = expectOk(await api.get(`/api/${subject}`, as(made.owner, made.community)))
    expect(empty).toMatchObject({
      communityId: made.community.id,
      configured: false,
      status: null,
      needsSubmit: false,
      submittedAt: null,
      createdAt: null
    })
  })

  it("uses the spec's upper-case state codes on the wire", async () => {
    const made = await newCommunity(api)
    const scoped = as(made.owner, made.community)
    expect(expectOk(await api.post(`/api/${subject}`, bodyOf(subject), scoped)).status).toBe("DRAFT")
    expect(expectOk(await api.post(`/api/${subject}/submit`, {}, scoped)).status).toBe("PENDING")
    expect(expectOk(await decide(made, subject, "reject")).status).toBe("REJECTED")
    expectOk(await api.post(`/api/${subject}/submit`, {}, scoped))
    expect(expectOk(await decide(made, subject, "approve"))).toMatchObject({ status: "APPROVED", configured: true })
    expect(expectOk(await api.get(`/api/${subject}`, scoped)).status).toBe("APPROVED")
    if (subject === "payout-settings") {
      expect(expectOk(await api.get("/api/payout-settings/status", scoped)).status).toBe("APPROVED")
    }
  })

  it("edit of an approved record → PENDING and needs submit again before an operator may decide", async () => {
    const made = await newCommunity(api)
    const scoped = as(made.owner, made.community)
    if (subject === "business-information") await approveBusiness(api, made.owner, made.community)
    else await approvePayouts(api, made.owner, made.community)
    const edited = expectOk(await api.post(`/api/${subject}`, bodyOf(subject), scoped))
    expect(edited).toMatchObject({ status: "PENDING", needsSubmit: true, submittedAt: null })
    const prefix = subject === "business-information" ? "BUSINESS_INFORMATION" : "PAYOUT_SETTINGS"
    expect(codes(expectOk(await api.get("/api/payout-settings/prerequisites", scoped)))).toContain(
      `${prefix}_NOT_SUBMITTED`
    )
    const early = expectError(await decide(made, subject, "approve"), 409)
    expect(early.errors[0].param).toBe("status")
    const submitted = expectOk(await api.post(`/api/${subject}/submit`, {}, scoped))
    expect(submitted).toMatchObject({ status: "PENDING", needsSubmit: false })
    expect(submitted.submittedAt).not.toBeNull()
    expect(codes(expectOk(await api.get("/api/payout-settings/prerequisites", scoped)))).toContain(
      `${prefix}_UNDER_REVIEW`
    )
    expect(expectOk(await decide(made, subject, "approve")).status).toBe("APPROVED")
  })

  it.each([
    ["DRAFT", "PENDING"],
    ["PENDING", "PENDING"],
    ["REJECTED", "PENDING"],
    ["APPROVED", "PENDING"]
  ])("accepts submit from %s (→ %s)", async (from, to) => {
    const made = await newCommunity(api)
    const scoped = as(made.owner, made.community)
    expectOk(await api.post(`/api/${subject}`, bodyOf(subject), scoped))
    if (from !== "DRAFT") expectOk(await api.post(`/api/${subject}/submit`, {}, scoped))
    if (from === "REJECTED") expectOk(await decide(made, subject, "reject"))
    if (from === "APPROVED") expectOk(await decide(made, subject, "approve"))
    const before = expectOk(await api.get(`/api/${subject}`, scoped))
    expect(before.status).toBe(from)
    const after = expectOk(await api.post(`/api/${subject}/submit`, {}, scoped))
    expect(after.status).toBe(to)
    // a repeated submit keeps the place in the review queue; an approved record joins it anew (spec §3)
    if (from === "PENDING") expect(after.submittedAt).toBe(before.submittedAt)
    if (from === "APPROVED") expect(Date.parse(after.submittedAt)).toBeGreaterThan(Date.parse(before.submittedAt))
  })
})

describe("OpenAPI", () => {
  it("lists the upper-case review states as the status enum", async () => {
    const doc = (await api.get("/api/openapi.json")).body
    const text = JSON.stringify(doc.paths["/api/payout-settings"].get)
    const refs = JSON.stringify(doc.components?.schemas ?? {})
    expect(`${text}${refs}`).toContain(JSON.stringify(["DRAFT", "PENDING", "APPROVED", "REJECTED"]))
    expect(`${text}${refs}`).not.toContain(`"approved"`)
  })
})

describe("plan add-ons (spec §2)", () => {
  it("must be monthly SUBSCRIPTION products: ONE_TIME or other intervals answer 400 on addOnProductIds", async () => {
    const shop = await catalogueCommunity(api, "Adicionais")
    const option = await draftOption(api, shop)
    const oneTime = await draftProduct(api, shop, { title: "E-book" })
    const annual = await draftOption(api, shop, { title: "Anual", billingInterval: "ANNUAL" })
    for (const addOn of [oneTime, annual]) {
      const reply = await api.post(
        "/api/subscription-groups",
        { name: "X", productIds: [option.id], addOnProductIds: [addOn.id] },
        shop.asOwner()
      )
      expect(expectInvalid(reply, "addOnProductIds").message).toBe("Add-ons must be monthly SUBSCRIPTION products.")
    }
    const monthly = await draftOption(api, shop, { title: "Mentoria" })
    const plan = await createPlan(api, shop, [option.id], { addOnProductIds: [monthly.id] })
    expect(plan.addOnProductIds).toEqual([monthly.id])
    expectInvalid(
      await api.put(`/api/subscription-groups/${plan.id}`, { addOnProductIds: [oneTime.id] }, shop.asOwner()),
      "addOnProductIds"
    )
    // an add-on's interval stays monthly while it is an add-on
    expectInvalid(
      await api.put(`/api/products/${monthly.id}`, { billingInterval: "ANNUAL" }, shop.asOwner()),
      "billingInterval"
    )
  })

  it("a billing option may be an option of several plans, never another plan's add-on", async () => {
    const shop = await catalogueCommunity(api, "Compartilhado")
    const shared = await draftOption(api, shop)
    const first = await createPlan(api, shop, [shared.id])
    const second = expectCreated(
      await api.post("/api/subscription-groups", { name: "Segundo", productIds: [shared.id] }, shop.asOwner())
    )
    expect([first.productIds, second.productIds]).toEqual([[shared.id], [shared.id]])
    const other = await draftOption(api, shop)
    const third = await createPlan(api, shop, [other.id])
    expect(
      expectOk(
        await api.put(`/api/subscription-groups/${third.id}`, { productIds: [other.id, shared.id] }, shop.asOwner())
      ).productIds
    )
      .toEqual([other.id, shared.id])
    const asAddOn = await api.post(
      "/api/subscription-groups",
      { name: "Quarto", productIds: [(await draftOption(api, shop)).id], addOnProductIds: [shared.id] },
      shop.asOwner()
    )
    expect(expectInvalid(asAddOn, "addOnProductIds").message).toBe(ADD_ON_IS_OPTION)
  })
})

describe("Brazilian tax ids (IN RFB 2.229/2024)", () => {
  const save = async (taxId: string) => {
    const { community, owner } = await newCommunity(api)
    return api.post("/api/business-information", { ...businessInformation(), taxId }, as(owner, community))
  }

  it.each([
    ["the Receita example", "12.ABC.345/01DE-35", "12ABC34501DE35"],
    ["lower case", "12.abc.345/01de-35", "12ABC34501DE35"],
    ["without punctuation", "12ABC34501DE35", "12ABC34501DE35"]
  ])("accept an alphanumeric CNPJ: %s", async (_label, taxId, stored) => {
    expect(expectOk(await save(taxId))).toMatchObject({ taxId: stored, taxIdType: "CNPJ" })
  })

  it.each([
    ["a wrong check digit", "12.ABC.345/01DE-36"],
    ["a changed letter", "12.ABD.345/01DE-35"],
    ["letters in the check digits", "12.ABC.345/01DE-3A"],
    ["a symbol", "12.AB*.345/01DE-35"],
    ["a CPF with a letter", "529.982.247-2A"]
  ])("refuse %s", async (_label, taxId) => {
    expectInvalid(await save(taxId), "taxId")
  })

  it("keeps CPFs as they were, and takes an alphanumeric CNPJ as PIX key and bank holder", async () => {
    expect(expectOk(await save(VALID_CPF))).toMatchObject({ taxId: "52998224725", taxIdType: "CPF" })
    const { community, owner } = await newCommunity(api)
    const scoped = as(owner, community)
    expect(expectOk(await api.post("/api/payout-settings", { method: "PIX", pixKey: "12.abc.345/01de-35" }, scoped)))
      .toMatchObject({ pixKey: "12ABC34501DE35", pixKeyType: "CNPJ" })
    const bankAccount = {
      bankCode: "341",
      branch: "0001",
      accountNumber: "123456",
      accountType: "CHECKING",
      holderName: "Roda Cursos Ltda",
      holderTaxId: "12.ABC.345/01DE-35"
    }
    expect(
      expectOk(await api.post("/api/payout-settings", { method: "BANK_ACCOUNT", bankAccount }, scoped)).bankAccount
    )
      .toMatchObject({ holderTaxId: "12ABC34501DE35" })
  })
})
