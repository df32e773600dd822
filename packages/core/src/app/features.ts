import { Layer } from "effect"
import { apiKeysFeature } from "../apiKeys/layer"
import { auditFeature } from "../audit/layer"
import { call4papersFeature } from "../call4papers/layer"
import { certificatesFeature } from "../certificates/layer"
import { catalogueFeature } from "../commerce/catalogue/layer"
import { checkoutFeature } from "../commerce/checkout/layer"
import { purchasesManageFeature } from "../commerce/checkout/manageLayer"
import { couponsFeature } from "../commerce/coupons/layer"
import { subscriptionsFeature } from "../commerce/subscriptions/layer"
import { communitiesFeature } from "../communities/layer"
import { coursesFeature } from "../courses/layer"
import { eventsFeature } from "../events/layer"
import { feedFeature } from "../feed/layer"
import { identityFeature } from "../identity/layer"
import { moderationFeature } from "../moderation/layer"
import { sellingAccountsFeature } from "../money/accounts/layer"
import { ledgerFeature } from "../money/ledger/layer"
import { payoutsFeature } from "../money/payouts/layer"
import { notificationsFeature } from "../notifications/layer"
import { oauthFeature } from "../oauth/layer"
import { privacyFeature } from "../privacy/layer"
import { reportsFeature } from "../reports/layer"
import { searchFeature } from "../search/layer"
import { socialFeature } from "../social/layer"
import { structureFeature } from "../structure/layer"
import { webhooksFeature } from "../webhooks/layer"

/** Every feature of Roda, each with its services and its HTTP handlers. Adding one is one line here. */
export const features = [
  identityFeature,
  communitiesFeature,
  structureFeature,
  coursesFeature,
  eventsFeature,
  socialFeature,
  feedFeature,
  searchFeature,
  sellingAccountsFeature,
  ledgerFeature,
  couponsFeature,
  catalogueFeature,
  checkoutFeature,
  payoutsFeature,
  purchasesManageFeature,
  reportsFeature,
  call4papersFeature,
  subscriptionsFeature,
  certificatesFeature,
  oauthFeature,
  auditFeature,
  apiKeysFeature,
  webhooksFeature,
  notificationsFeature,
  moderationFeature,
  privacyFeature
] as const

type Features = typeof features
type AnyLayer = Layer.Layer<any, any, any>
// Distributive over a union of layers (Layer.Layer.Success is not).
type SuccessOf<L> = L extends Layer.Layer<infer A, any, any> ? A : never
type ErrorOf<L> = L extends Layer.Layer<any, infer E, any> ? E : never
type ContextOf<L> = L extends Layer.Layer<any, any, infer R> ? R : never

const mergeList = <L extends AnyLayer>(layers: ReadonlyArray<L>) =>
  Layer.mergeAll(...(layers as unknown as [L])) as Layer.Layer<SuccessOf<L>, ErrorOf<L>, ContextOf<L>>

/** The use-case services of every feature. */
export const featureServices = mergeList<Features[number]["services"]>(features.map((f) => f.services))

/** The HttpApi group handlers of every feature, each with its own services provided. */
export const featureHandlers = mergeList<Features[number]["http"]>(features.map((f) => f.http))
