import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { activeTemplate, certificateCommunity, issueAndWait } from "../certificates/support"
import { recordSale } from "../money/ledger-support"
import { as, newCommunity } from "../support/community"
import { expectError, expectInvalid, expectOk } from "../support/envelope"
import { client, PLATFORM_ADMIN, startRoda } from "../support/harness"
import { businessInformation, platformAdmin, sellingCommunity } from "../support/selling"
import { query } from "../support/sql"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const SUPERADMIN_ONLY = "Apenas operadores da plataforma (SuperAdmin) podem fazer isto."

let operator: string
let operatorId: string

beforeAll(async () => {
  operator = await platformAdmin(api)
  operatorId = expectOk(await api.get("/api/auth/me", { token: operator })).id
})

/** The community's audit entries as operators read them, newest first. */
const auditOf = async (communityId: string, filters = "") =>
  expectOk(
    await api.get(`/api/admin/audit?community=${communityId}&limit=100${filters}`, { token: operator })
  ) as Array<any>

/** Rows in the table for the community (what a rolled-back action must not have left). */
const rowsOf = async (communityId: string) =>
  (await query<{ n: number }>(
    roda,
    (sql) => sql`SELECT count(*)::int AS n FROM operator_audit WHERE community_id = ${communityId}`
  ))[0]!.n

const byOperator = { id: expect.any(String), email: PLATFORM_ADMIN }

describe("reviews of business information and payout settings", () => {
  it("records each decision with the operator, the record and the reason; a refused one records nothing", async () => {
    const made = await newCommunity(api, "Auditada")
    const scoped = as(made.owner, made.community)
    const id = made.community.id
    expectOk(await api.post("/api/business-information", businessInformation(), scoped))
    expectOk(await api.post("/api/business-information/submit", {}, scoped))
    expectOk(await api.post("/api/payout-settings", { method: "PIX", pixKey: "financeiro@roda.test" }, scoped))
    expectOk(await api.post("/api/payout-settings/submit", {}, scoped))
    // the owner's own saves and submits are not operator actions
    expect(await rowsOf(id)).toBe(0)

    const admin = `/api/admin/communities/${id}`
    expectOk(await api.post(`${admin}/business-information/approve`, {}, { token: operator }))
    expectOk(
      await api.post(`${admin}/payout-settings/reject`, { reason: "Chave de outra empresa" }, { token: operator })
    )

    const [rejected, approved] = await auditOf(id)
    expect(approved).toMatchObject({
      actor: { id: operatorId, email: PLATFORM_ADMIN },
      action: "business_information.approve",
      target: { type: "business_information", id },
      communityId: id,
      details: {}
    })
    expect(rejected).toMatchObject({
      actor: { id: operatorId },
      action: "payout_settings.reject",
      target: { type: "payout_settings", id },
      details: { reason: "Chave de outra empresa" }
    })
    // the PIX key of the settings reviewed is nowhere in the log
    expect(JSON.stringify(rejected)).not.toContain("financeiro@roda.test")

    // approving again is refused (409): no row
    expectError(await api.post(`${admin}/business-information/approve`, {}, { token: operator }), 409)
    // nor for someone who is not an operator
    expectError(await api.post(`${admin}/payout-settings/approve`, {}, { token: made.owner.token }), 403)
    expect(await rowsOf(id)).toBe(2)
  })
})

describe("fee overrides", () => {
  it("records set and remove with the fees set; refused and rolled-back ones leave no row", async () => {
    const made = await newCommunity(api, "Taxas")
    const id = made.community.id
    const path = `/api/admin/communities/${id}/fee-overrides`
    expectOk(
      await api.put(`${path}/CREDIT_CARD`, { percentBps: 250, fixed: 30, interestRateBps: 150 }, { token: operator })
    )
    expectOk(await api.del(`${path}/CREDIT_CARD`, { token: operator }))
    const [removed, set] = await auditOf(id)
    expect(set).toMatchObject({
      actor: byOperator,
      action: "fee_override.set",
      target: { type: "fee_override", id: "CREDIT_CARD" },
      communityId: id,
      details: { percentBps: 250, fixed: 30, interestRateBps: 150 }
    })
    expect(removed).toMatchObject({
      action: "fee_override.remove",
      target: { type: "fee_override", id: "CREDIT_CARD" },
      communityId: id
    })

    expectInvalid(
      await api.put(`${path}/PIX`, { percentBps: 100, fixed: 0, interestRateBps: 100 }, { token: operator }),
      "interestRateBps"
    )
    expectError(await api.put(`${path}/PIX`, { percentBps: 100, fixed: 0 }, { token: made.owner.token }), 403)
    expect(await rowsOf(id)).toBe(2)

    // The audit row cannot be written (a constraint of this test): the override is not kept either.
    // PUT has no request transaction, so only the service's own transaction holds them together.
    const constraint = `audit_test_${id.replace(/-/g, "")}`
    await query(roda, (sql) =>
      sql.unsafe(`ALTER TABLE operator_audit ADD CONSTRAINT ${constraint}
        CHECK (community_id <> '${id}') NOT VALID`))
    try {
      expectError(await api.put(`${path}/BOLETO`, { percentBps: 100, fixed: 0 }, { token: operator }), 500)
    } finally {
      await query(roda, (sql) => sql.unsafe(`ALTER TABLE operator_audit DROP CONSTRAINT ${constraint}`))
    }
    const fees = expectOk(await api.get(`/api/fees`, as(made.owner, made.community)))
    const boleto = (fees.methods as Array<any>).find((method) => method.paymentMethod === "BOLETO")
    expect(boleto.overridden).toBe(false)
    expect(await rowsOf(id)).toBe(2)
  })
})

describe("payouts", () => {
  it("records in transit, paid and failed with the payout and its amounts; a refused move records nothing", async () => {
    const shop = await sellingCommunity(api, "Saques auditados")
    const id = shop.community.id
    await recordSale(roda, id, { method: "PIX", amount: 10000 })
    const scoped = as(shop.owner, shop.community)
    const before = await rowsOf(id) // the two approvals of sellingCommunity

    const first = expectOk(await api.post("/api/payouts", { amount: 1000 }, scoped), 201)
    const admin = `/api/admin/communities/${id}/payouts`
    expectError(await api.post(`${admin}/${first.id}/paid`, {}, { token: operator }), 409)
    expect(await rowsOf(id)).toBe(before)
    expectOk(await api.post(`${admin}/${first.id}/in-transit`, {}, { token: operator }))
    expectOk(await api.post(`${admin}/${first.id}/paid`, {}, { token: operator }))
    const second = expectOk(await api.post("/api/payouts", { amount: 500 }, scoped), 201)
    expectOk(await api.post(`${admin}/${second.id}/failed`, { reason: "Conta encerrada" }, { token: operator }))
    expectError(await api.post(`${admin}/${second.id}/in-transit`, {}, { token: operator }), 409)
    expectError(await api.post(`${admin}/${second.id}/paid`, {}, { token: shop.owner.token }), 403)

    const entries = await auditOf(id, "&since=2000-01-01")
    expect(entries).toHaveLength(before + 3)
    const [failed, paid, inTransit] = entries
    expect(inTransit).toMatchObject({
      actor: byOperator,
      action: "payout.in_transit",
      target: { type: "payout", id: first.id },
      communityId: id,
      details: { amount: 1000, fee: 200, currency: "BRL" }
    })
    expect(paid).toMatchObject({ action: "payout.paid", target: { type: "payout", id: first.id } })
    expect(failed).toMatchObject({
      action: "payout.failed",
      target: { type: "payout", id: second.id },
      details: { amount: 500, reason: "Conta encerrada" }
    })
    expect(entries.slice(3).map((entry) => entry.action).sort()).toEqual([
      "business_information.approve",
      "payout_settings.approve"
    ])
  })
})

describe("gateway accounts", () => {
  it("records set and remove; a refused call records nothing", async () => {
    const made = await newCommunity(api, "Gateway")
    const id = made.community.id
    const path = `/api/admin/communities/${id}/gateway-account`
    expectError(await api.put(path, { accountId: "acct_1Owner" }, { token: made.owner.token }), 403)
    expectInvalid(await api.put(path, { accountId: "not-an-account" }, { token: operator }), "accountId")
    expect(await rowsOf(id)).toBe(0)
    // The address the operator acted from is the peer's: its spoofed X-Forwarded-For is not trusted.
    const spoofed = { "x-forwarded-for": "203.0.113.66" }
    expectOk(
      await api.put(path, { accountId: "acct_1Audited" }, {
        token: operator,
        clientAddress: "192.0.2.44",
        headers: spoofed
      })
    )
    expectOk(await api.del(path, { token: operator, clientAddress: "::ffff:192.0.2.45" }))
    const [removed, set] = await auditOf(id)
    expect(set).toMatchObject({
      actor: byOperator,
      action: "gateway_account.set",
      target: { type: "gateway_account", id },
      details: { accountId: "acct_1Audited" },
      clientAddress: "192.0.2.44"
    })
    expect(removed).toMatchObject({
      action: "gateway_account.remove",
      target: { type: "gateway_account", id },
      clientAddress: "192.0.2.45"
    })
  })
})

describe("certificates", () => {
  it("records a batch issued, a retry and a revocation by whoever did them", async () => {
    const setup = await certificateCommunity(api, "Certificados auditados")
    const id = setup.community.id
    const template = await activeTemplate(api, setup)
    const { batch, certificates } = await issueAndWait(api, setup, template.id, [setup.ana.profileId])
    const certificate = certificates[0]
    expectOk(
      await api.post(`/api/certificates/${certificate.id}/revoke`, { reason: "Emitido por engano" }, setup.owner())
    )
    // a second revocation is refused: no row
    expectError(await api.post(`/api/certificates/${certificate.id}/revoke`, { reason: "x" }, setup.owner()), 409)

    const broken = await activeTemplate(api, setup, { name: "Quebrado" })
    // a font that cannot be loaded makes every render fail
    await query(
      roda,
      (sql) => sql`UPDATE certificate_templates SET font_id = 'missing' WHERE id = ${broken.id} RETURNING id`
    )
    const failed = await issueAndWait(api, setup, broken.id, [setup.bruno.profileId])
    expect(failed.certificates[0]).toMatchObject({ status: "failed" })
    expectOk(await api.post(`/api/certificates/${failed.certificates[0].id}/retry`, undefined, setup.owner()))

    const entries = await auditOf(id)
    expect(entries.map((entry) => entry.action)).toEqual([
      "certificate.retry",
      "certificates.issue",
      "certificate.revoke",
      "certificates.issue"
    ])
    const ownerId = setup.ownerUser.id
    expect(entries[3]).toMatchObject({
      actor: { id: ownerId, email: setup.ownerUser.email },
      target: { type: "certificate_batch", id: batch.id },
      communityId: id,
      details: { templateId: template.id, spaceId: setup.space.id, recipients: 1 }
    })
    expect(entries[2]).toMatchObject({
      actor: { id: ownerId },
      target: { type: "certificate", id: certificate.id },
      details: { reason: "Emitido por engano" }
    })
    expect(entries[0]).toMatchObject({
      target: { type: "certificate", id: failed.certificates[0].id },
      details: { batchId: failed.batch.id }
    })
  })
})

describe("GET /api/admin/audit", () => {
  it("is for platform operators only (403 with the spec's message; 401 without a token)", async () => {
    const made = await newCommunity(api, "Curiosa")
    expectError(await api.get("/api/admin/audit", { token: made.owner.token }), 403, SUPERADMIN_ONLY)
    expectError(await api.get("/api/admin/audit", as(made.owner, made.community)), 403, SUPERADMIN_ONLY)
    expectError(await api.get("/api/admin/audit"), 401)
  })

  it("pages newest first with a cursor, and filters by action, actor, community and period", async () => {
    const made = await newCommunity(api, "Paginada")
    const id = made.community.id
    const path = `/api/admin/communities/${id}/fee-overrides`
    for (const [method, percentBps] of [["CREDIT_CARD", 100], ["PIX", 110], ["BOLETO", 120]] as const) {
      expectOk(await api.put(`${path}/${method}`, { percentBps, fixed: 0 }, { token: operator }))
    }
    expectOk(await api.del(`${path}/PIX`, { token: operator }))

    const first = await api.get(`/api/admin/audit?community=${id}&limit=3`, { token: operator })
    const page1 = expectOk(first) as Array<any>
    expect(page1.map((entry) => entry.action)).toEqual(["fee_override.remove", "fee_override.set", "fee_override.set"])
    expect(page1.map((entry) => entry.target.id)).toEqual(["PIX", "BOLETO", "PIX"])
    expect(first.body.pagination).toMatchObject({ limit: 3, nextCursor: expect.any(String) })
    const second = await api.get(
      `/api/admin/audit?community=${id}&limit=3&cursor=${first.body.pagination.nextCursor}`,
      { token: operator }
    )
    const page2 = expectOk(second) as Array<any>
    expect(page2.map((entry) => [entry.action, entry.target.id])).toEqual([["fee_override.set", "CREDIT_CARD"]])
    expect(second.body.pagination.nextCursor).toBeNull()
    expect(new Set([...page1, ...page2].map((entry) => entry.id)).size).toBe(4)

    expect((await auditOf(id, "&action=fee_override.remove")).map((entry) => entry.target.id)).toEqual(["PIX"])
    expect(await auditOf(id, "&action=payout.paid")).toEqual([])
    expect(await auditOf(id, `&actor=${operatorId}`)).toHaveLength(4)
    expect(await auditOf(id, `&actor=${made.owner.id}`)).toEqual([])
    const [oldest, newest] = [page2[0].createdAt.slice(0, 10), page1[0].createdAt.slice(0, 10)]
    expect(await auditOf(id, `&since=${oldest}&until=${newest}`)).toHaveLength(4)
    expect(await auditOf(id, "&until=2001-01-01")).toEqual([])
    expect(await auditOf(id, `&since=${encodeURIComponent(page1[0].createdAt)}`)).not.toHaveLength(0)
    // every community's entries without the filter, this one's among them
    const all = expectOk(await api.get("/api/admin/audit?action=fee_override.remove&limit=100", { token: operator }))
    expect((all as Array<any>).some((entry) => entry.communityId === id)).toBe(true)
  })

  it("answers 400 naming the filter that is wrong", async () => {
    const get = (query: string) => api.get(`/api/admin/audit?${query}`, { token: operator })
    expectInvalid(await get("action=payout.stolen"), "action", "query")
    expectInvalid(await get("actor=someone"), "actor", "query")
    expectInvalid(await get("community=nowhere"), "community", "query")
    expectInvalid(await get("since=yesterday"), "since", "query")
    expectInvalid(await get("until=2030-13-01"), "until", "query")
    expectInvalid(await get("since=2030-05-02&until=2030-05-01"), "until", "query")
    expectInvalid(await get("limit=0"), "limit", "query")
    expectInvalid(await get("cursor=not-a-cursor"), "cursor", "query")
  })
})
