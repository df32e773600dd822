import { as, newCommunity } from "../support/community"
import { expectCreated, roleRequired } from "../support/envelope"
import type { Client } from "../support/harness"

export const MANAGERS_ONLY = (role: string) => roleRequired(["owner", "admin"], role)
export const READERS_ONLY = (role: string) => roleRequired(["owner", "admin", "finance"], role)
export const PRODUCT_NOT_FOUND = "Product not found"
export const ADD_ON_UNKNOWN = "One of the add-ons does not exist in this community or was deleted."
export const ADD_ON_IS_OPTION = "A product that is a plan's billing option cannot be another plan's add-on."
export const PUBLISH_NEEDS_BUSINESS =
  "To publish and start selling, the community needs approved business information. Submit it for review and publish once it is approved."
export const CURRENCY_MISMATCH = (product: string, approved: string) =>
  `This product is priced in ${product}, but the approved business information uses ${approved}`

/** A community with one person of each role besides the owner. */
export const catalogueCommunity = async (api: Client, label = "Catálogo") => {
  const made = await newCommunity(api, label)
  const people = {
    admin: await made.addMember("admin"),
    finance: await made.addMember("finance"),
    moderator: await made.addMember("moderator"),
    member: await made.addMember("member")
  }
  return { ...made, people, asOwner: () => as(made.owner, made.community) }
}
export type CatalogueCommunity = Awaited<ReturnType<typeof catalogueCommunity>>

/** A DRAFT product (no approval needed); `fields` override a ONE_TIME of R$ 100,00. */
export const draftProduct = async (
  api: Client,
  setup: { asOwner: () => { token: string; community: string } },
  fields: Record<string, unknown> = {}
) =>
  expectCreated(
    await api.post("/api/products", { type: "ONE_TIME", title: "Ingresso", price: 10000, ...fields }, setup.asOwner())
  )

/** A DRAFT SUBSCRIPTION product, R$ 49,90 a month unless `fields` say otherwise. */
export const draftOption = (
  api: Client,
  setup: { asOwner: () => { token: string; community: string } },
  fields: Record<string, unknown> = {}
) =>
  draftProduct(api, setup, {
    type: "SUBSCRIPTION",
    title: "Mensal",
    price: 4990,
    billingInterval: "MONTHLY",
    ...fields
  })

/** A plan with these billing options (and add-ons). */
export const createPlan = async (
  api: Client,
  setup: { asOwner: () => { token: string; community: string } },
  productIds: ReadonlyArray<string>,
  fields: Record<string, unknown> = {}
) =>
  expectCreated(await api.post("/api/subscription-groups", { name: "Plano", productIds, ...fields }, setup.asOwner()))
