import { Effect, Layer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Settlement } from "../../src/commerce/checkout/Settlement"
import { CommunityId, PaymentGateway, sandboxGateway, secret } from "../../src/index"
import { Jobs } from "../../src/platform/Jobs"
import { cardCheckout, shop } from "../commerce/checkout-support"
import { expectOk } from "../support/envelope"
import { client, SANDBOX_WEBHOOK_SECRET } from "../support/harness"
import { query } from "../support/sql"
import { startFakeStripe } from "./support/fakeStripe"
import { rodaWith, stripeLayer } from "./support/gateways"

/**
 * A process that stops at the worst moment: `after` the gateway charged but before the second
 * transaction recorded it, or `before` the gateway was reached at all (the charge is reserved).
 */
const crash = { at: "none" as "none" | "before" | "after" }
const crashing = <E, R>(inner: Layer.Layer<PaymentGateway, E, R>) =>
  Layer.effect(
    PaymentGateway,
    Effect.map(PaymentGateway, (gateway) => ({
      ...gateway,
      createCharge: (request: Parameters<typeof gateway.createCharge>[0]) =>
        crash.at === "before"
          ? Effect.dieMessage("process stopped before the gateway call")
          : crash.at === "after"
          ? Effect.zipRight(gateway.createCharge(request), Effect.dieMessage("process stopped after the gateway call"))
          : gateway.createCharge(request),
      refund: (request: Parameters<NonNullable<typeof gateway.refund>>[0]) =>
        crash.at === "after"
          ? Effect.zipRight(gateway.refund!(request), Effect.dieMessage("process stopped after the refund call"))
          : gateway.refund!(request)
    }))
  ).pipe(Layer.provide(inner))

const fake = await startFakeStripe()
const gateways = [
  { name: "sandbox", roda: rodaWith(crashing(sandboxGateway({ webhookSecret: secret(SANDBOX_WEBHOOK_SECRET) }))) },
  { name: "stripe", roda: rodaWith(crashing(stripeLayer(fake))) }
]
afterAll(async () => {
  await Promise.all(gateways.map((gateway) => gateway.roda.dispose()))
  await fake.close()
})

describe.each(gateways)("a crash between reserving and settling ($name)", ({ roda }) => {
  const api = client(roda)
  const chargeOf = async (productId: string) =>
    (await query<{ id: string; status: string; submittedAt: Date | null }>(
      roda,
      (sql) => sql`SELECT id, status, submitted_at FROM charges WHERE product_id = ${productId}`
    ))[0]!
  const stockOf = async (productId: string) =>
    (await query<{ stockQuantity: number }>(
      roda,
      (sql) => sql`SELECT stock_quantity FROM products WHERE id = ${productId}`
    ))[0]!
      .stockQuantity
  const salesOf = (chargeId: string) =>
    query(roda, (sql) => sql`SELECT id FROM ledger_transactions WHERE reference = ${chargeId} AND kind = 'sale'`)
  /** The durable reconciliation job of the charge, made due now and run. */
  const runReconcileJob = async (chargeId: string) => {
    const moved = await query(roda, (sql) =>
      sql`UPDATE jobs SET run_at = now() - interval '1 second'
        WHERE kind = 'checkout.reconcile' AND key = ${chargeId} RETURNING id`)
    expect(moved).toHaveLength(1)
    return roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) => jobs.runDue({ kinds: ["checkout.reconcile"] })))
  }

  it("settles a charge the gateway took: the job asks the gateway, and settles once however often it runs", async () => {
    const made = await shop(api, { hasStock: true, stockQuantity: 2 })
    crash.at = "after"
    const reply = await api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id })
    crash.at = "none"
    expect(reply.status).toBe(500)
    const left = await chargeOf(made.product.id)
    expect(left).toMatchObject({ status: "pending", submittedAt: null })
    expect(await stockOf(made.product.id)).toBe(1)
    // two reconciliations at once (a job and its retry on another worker): one sale
    const settle = (id: string) =>
      roda.runtime.runPromise(
        Effect.flatMap(Settlement, (settlement) => settlement.reconcile(CommunityId.make(made.community.id), id))
      )
    expect(await Promise.all([settle(left.id), settle(left.id)])).toEqual(["paid", "paid"])
    expect(await runReconcileJob(left.id)).toBe(1)
    expect((await chargeOf(made.product.id)).status).toBe("paid")
    expect(await salesOf(left.id)).toHaveLength(1)
    expect(await query(roda, (sql) => sql`SELECT id FROM purchases WHERE charge_id = ${left.id}`)).toHaveLength(1)
    expect(await stockOf(made.product.id)).toBe(1)
  })

  it("releases a charge the gateway never received: stock back, final failed, nothing sold", async () => {
    const made = await shop(api, { hasStock: true, stockQuantity: 1 })
    crash.at = "before"
    const reply = await api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id })
    crash.at = "none"
    expect(reply.status).toBe(500)
    const left = await chargeOf(made.product.id)
    expect(await stockOf(made.product.id)).toBe(0)
    expect(await runReconcileJob(left.id)).toBe(1)
    expect(await chargeOf(made.product.id)).toMatchObject({ status: "failed" })
    expect(await stockOf(made.product.id)).toBe(1)
    expect(await salesOf(left.id)).toHaveLength(0)
    // the unit is for sale again
    expectOk(await api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id }), 201)
  })

  it("does nothing for a charge whose answer was recorded", async () => {
    const made = await shop(api)
    const sale = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id }),
      201
    )
    expect(await runReconcileJob(sale.chargeId)).toBe(1)
    expect(await salesOf(sale.chargeId)).toHaveLength(1)
  })

  it("finishes a refund the gateway made before the process stopped, once (same idempotency key)", async () => {
    const made = await shop(api)
    const sale = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id), { community: made.community.id }),
      201
    )
    crash.at = "after"
    const reply = await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { reason: "queda" }, made.scoped)
    crash.at = "none"
    expect(reply.status).toBe(500)
    const refunds = () =>
      query<{ id: string; status: string }>(
        roda,
        (sql) => sql`SELECT id, status FROM refunds WHERE charge_id = ${sale.chargeId}`
      )
    const [pending] = await refunds()
    expect(pending!.status).toBe("pending")
    // what is left to refund already counts it: a second refund is refused meanwhile
    expect(
      (await api.post(`/api/manage/purchases/${sale.purchaseId}/refund`, { reason: "de novo" }, made.scoped)).status
    )
      .toBe(409)
    await query(roda, (sql) =>
      sql`UPDATE jobs SET run_at = now() - interval '1 second'
        WHERE kind = 'checkout.refundReconcile' AND key = ${pending!.id} RETURNING id`)
    await roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) => jobs.runDue({ kinds: ["checkout.refundReconcile"] })))
    expect((await refunds()).map((r) => r.status)).toEqual(["succeeded"])
    const posted = await query(
      roda,
      (sql) => sql`SELECT id FROM ledger_transactions WHERE reference = ${sale.chargeId} AND kind = 'refund'`
    )
    expect(posted).toHaveLength(1)
    if (fake.intentFor(sale.chargeId)) {
      const sent = fake.calls("POST", "/v1/refunds").filter((r) => r.params.metadata?.roda_charge_id === sale.chargeId)
      expect(sent.map((r) => r.idempotencyKey)).toEqual([`roda-refund-${pending!.id}`, `roda-refund-${pending!.id}`])
      expect(fake.refunds.filter((r) => r.metadata.roda_charge_id === sale.chargeId)).toHaveLength(1)
    }
  })
})
