import { expect, it } from "vitest"
import { recordSale } from "../money/ledger-support"
import { as } from "../support/community"
import { expectOk } from "../support/envelope"
import { platformAdmin, sellingCommunity } from "../support/selling"
import { expectDeclared, expectNoMore, verifiedEvents, webhookSuite } from "./receiver"

/** Issue 54, item 3: a payout's request, payment and failure reach the community's webhooks. */
const { roda, api, receiver: running } = webhookSuite()

it("sends payout.requested, payout.paid and payout.failed with the payout as its detail route answers; a refused repeat sends nothing", async () => {
  const shop = await sellingCommunity(api, "Saques com ganchos")
  const owner = as(shop.owner, shop.community)
  const hook = (await api.post("/api/webhooks", {
    url: running().url("/payouts"),
    events: ["payout.requested", "payout.paid", "payout.failed"]
  }, owner)).body.data
  await recordSale(roda, shop.community.id, { method: "PIX", amount: 10000 })
  const operator = { token: await platformAdmin(api) }
  const admin = `/api/admin/communities/${shop.community.id}/payouts`
  const detail = async (id: string) => expectOk(await api.get(`/api/payouts/${id}`, owner))

  const paid = expectOk(await api.post("/api/payouts", { amount: 1000 }, owner), 201)
  const requested = await detail(paid.id)
  expect((await api.post("/api/payouts", { amount: 1000 }, owner)).status).toBe(409)
  expectOk(await api.post(`${admin}/${paid.id}/in-transit`, {}, operator))
  expectOk(await api.post(`${admin}/${paid.id}/paid`, {}, operator))
  const settled = await detail(paid.id)
  expect((await api.post(`${admin}/${paid.id}/paid`, {}, operator)).status).toBe(409)
  const failed = expectOk(await api.post("/api/payouts", { amount: 2000 }, owner), 201)
  expectOk(await api.post(`${admin}/${failed.id}/failed`, { reason: "Conta encerrada" }, operator))
  const returned = await detail(failed.id)
  expect((await api.post(`${admin}/${failed.id}/failed`, { reason: "De novo" }, operator)).status).toBe(409)

  const delivered = verifiedEvents(hook.secret, await running().waitFor("/payouts", 4))
  expect(delivered.map((e) => e.type)).toEqual(["payout.requested", "payout.paid", "payout.requested", "payout.failed"])
  const communityId = shop.community.id
  expect(delivered[0].data).toEqual({ ...requested, communityId })
  expect(delivered[0].data).toEqual({ ...paid, communityId })
  expect(delivered[1].data).toEqual({ ...settled, communityId })
  expect(delivered[1].data).toMatchObject({ status: "paid", paidAt: expect.any(String) })
  expect(delivered[2].data).toEqual({ ...failed, communityId })
  expect(delivered[3].data).toEqual({ ...returned, communityId })
  expect(delivered[3].data).toMatchObject({ status: "failed", failureReason: "Conta encerrada" })
  await expectDeclared(api, delivered)
  await expectNoMore(running(), "/payouts", 4)
})
