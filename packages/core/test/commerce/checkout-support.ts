import { Effect } from "effect"
import { signSandboxWebhook } from "../../src/index"
import { as } from "../support/community"
import { expectCreated, expectOk } from "../support/envelope"
import type { Client } from "../support/harness"
import { SANDBOX_WEBHOOK_SECRET, uniqueEmail } from "../support/harness"
import { activePlanOption, activeProduct, sellingCommunity, VALID_CPF } from "../support/selling"

export const buyer = (email = uniqueEmail("buyer")) => ({ name: "Bia Compradora", email, taxId: VALID_CPF })

/** The payer's address a boleto carries. */
export const billingAddress = {
  street: "Rua das Flores",
  number: "100",
  neighbourhood: "Centro",
  city: "São Paulo",
  state: "SP",
  postalCode: "01001-000",
  country: "br"
}

/** A selling community with a ONE_TIME product (R$ 100,00) and its sales e-mail set. */
export const shop = async (api: Client, product: Record<string, unknown> = {}) => {
  const made = await sellingCommunity(api)
  const scoped = as(made.owner, made.community)
  const salesEmail = uniqueEmail("vendas")
  expectOk(await api.put("/api/notification-settings", { salesEmail }, scoped))
  const item = await activeProduct(api, made.owner, made.community, product)
  return { ...made, scoped, salesEmail, product: item }
}

/** A plan with one published monthly option. */
export const planOf = async (api: Client, made: Awaited<ReturnType<typeof shop>>) => {
  const option = await activePlanOption(api, made.owner, made.community)
  const plan = expectCreated(
    await api.post("/api/subscription-groups", { name: "Plano Pro", productIds: [option.id] }, made.scoped)
  )
  return { option, plan }
}

export const cardCheckout = (productId: string, extra: Record<string, unknown> = {}) => ({
  productId,
  paymentMethod: "CREDIT_CARD",
  cardToken: "tok_visa",
  buyer: buyer(),
  ...extra
})

/** Posts a sandbox gateway event signed with the suites' webhook secret, as the sandbox bank would. */
export const sandboxWebhook = async (api: Client, event: unknown) => {
  const raw = JSON.stringify(event)
  return api.call("POST", "/api/checkout/webhooks/sandbox", {
    raw,
    headers: await Effect.runPromise(signSandboxWebhook(SANDBOX_WEBHOOK_SECRET, raw))
  })
}
