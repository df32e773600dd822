import { afterAll } from "vitest"
import { buyer, type shop } from "../../commerce/checkout-support"
import { controlledClock } from "../../commerce/subscriptions-support"
import { expectCreated, expectOk } from "../../support/envelope"
import { client } from "../../support/harness"
import { query } from "../../support/sql"
import { startFakeStripe, stripeEvent } from "./fakeStripe"
import { postStripeEvent, rodaWith, stripeLayer } from "./gateways"

export type Shop = Awaited<ReturnType<typeof shop>>

/** A Roda selling through the local Stripe stand-in, disposed of after the file's tests. */
export const stripeSuite = async () => {
  const fake = await startFakeStripe()
  const roda = rodaWith(stripeLayer(fake))
  const api = client(roda)
  afterAll(async () => {
    await roda.dispose()
    await fake.close()
  })

  const netOf = async (chargeId: string) =>
    Number(
      (await query<{ net: string }>(roda, (sql) => sql`SELECT net::text AS net FROM charges WHERE id = ${chargeId}`))[
        0
      ]!.net
    )

  /** A PIX sale paid at "Stripe" and reported by its webhook (released at once when Roda holds its money). */
  const pixSale = async (made: Shop) => {
    const sale = expectCreated(
      await api.post("/api/checkout", { productId: made.product.id, paymentMethod: "PIX", buyer: buyer() }, made.scoped)
    )
    const intent = fake.succeed(fake.intentFor(sale.chargeId)!.id)
    expectOk(await postStripeEvent(api, stripeEvent("payment_intent.succeeded", intent)))
    return { chargeId: sale.chargeId as string, intent, net: await netOf(sale.chargeId) }
  }

  /** The community's payout balance in its one currency. */
  const balanceOf = async (made: Shop) =>
    (expectOk(await api.get("/api/payouts/balance", made.scoped)) as Array<any>)[0]

  return { fake, roda, api, netOf, pixSale, balanceOf }
}

/** Spec §7's refusal of a payout above the available balance. */
export const insufficient = (available: number) =>
  `Insufficient balance. Available: ${(available / 100).toFixed(2)} BRL`

/**
 * A Roda charging renewals through the Stripe stand-in: a clock the tests move, jobs run by the tests
 * (`runJobs`), no limits on abuse. Disposed of after the file's tests.
 */
export const renewalSuite = async () => {
  const time = controlledClock(Date.now())
  const fake = await startFakeStripe()
  const roda = rodaWith(stripeLayer(fake), { clock: time.clock })
  const api = client(roda)
  afterAll(async () => {
    await roda.dispose()
    await fake.close()
  })
  return { time, fake, roda, api }
}
