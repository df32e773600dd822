import { HttpApi, OpenApi } from "@effect/platform"
import { ApiKeysApi } from "../apiKeys/Api"
import { AuditApi } from "../audit/Api"
import { CallsApi } from "../call4papers/calls/Api"
import { SubmissionsApi } from "../call4papers/submissions/Api"
import { CertificatePagesApi, CertificatesApi } from "../certificates/Api"
import { DownsellOffersApi, PlansApi, PricingTiersApi, ProductsApi } from "../commerce/catalogue/Api"
import { CheckoutApi, CheckoutWebhooksApi, PurchasesApi } from "../commerce/checkout/Api"
import { GatewayAccountsApi } from "../commerce/checkout/GatewayAccountsApi"
import { PurchasesManageApi } from "../commerce/checkout/PurchasesManageApi"
import { CouponsApi } from "../commerce/coupons/Api"
import { ManageSubscriptionsApi, SubscriptionsApi } from "../commerce/subscriptions/Api"
import { CommunitiesApi } from "../communities/Api"
import { ProfilesApi } from "../communities/ProfilesApi"
import { CoursesApi } from "../courses/Api"
import { EventsApi } from "../events/Api"
import { FeedApi } from "../feed/Api"
import { RequestRefused } from "../http/requestFailures"
import { IdentityApi } from "../identity/Api"
import { ModerationApi } from "../moderation/Api"
import { BusinessInformationApi, PayoutSettingsApi, SellingReviewApi } from "../money/accounts/Api"
import { FeeOverridesApi, FeesApi, LedgerApi } from "../money/ledger/Api"
import { PayoutOperationsApi, PayoutsApi } from "../money/payouts/Api"
import { NotificationsApi } from "../notifications/Api"
import { NotificationUnsubscribeApi } from "../notifications/UnsubscribeApi"
import { OAuthServerApi } from "../oauth/Api"
import { OAuthConnectionsApi } from "../oauth/ConnectionsApi"
import { OAuthConsentApi } from "../oauth/ConsentApi"
import { McpEndpointApi } from "../oauth/McpEndpointApi"
import { ErasureApi } from "../privacy/ErasureApi"
import { PrivacyExportsApi } from "../privacy/ExportsApi"
import { ReportsApi } from "../reports/Api"
import { SearchApi } from "../search/Api"
import { ContentApi, StatusApi } from "../social/Api"
import { SectionsApi, SpacesApi } from "../structure/Api"
import { WebhooksApi } from "../webhooks/Api"
import { addWebhooks } from "../webhooks/EventsApi"
import { description } from "./description"
import { polishDocument } from "./polish"
import { addRateLimitHeaders } from "./rateLimitHeaders"
import { addScopeHeaders } from "./scopeHeaders"

const groups = HttpApi.make("roda")
  .add(IdentityApi)
  .add(CommunitiesApi)
  .add(ProfilesApi)
  .add(SectionsApi)
  .add(SpacesApi)
  .add(CoursesApi)
  .add(EventsApi)
  .add(FeedApi)
  .add(SearchApi)
  .add(StatusApi)
  .add(ContentApi)
  .add(BusinessInformationApi)
  .add(PayoutSettingsApi)
  .add(SellingReviewApi)
  .add(FeesApi)
  .add(FeeOverridesApi)
  .add(LedgerApi)
  .add(CouponsApi)
  .add(CheckoutApi)
  .add(CheckoutWebhooksApi)
  .add(GatewayAccountsApi)
  .add(PurchasesApi)
  .add(ProductsApi)
  .add(PlansApi)
  .add(DownsellOffersApi)
  .add(PricingTiersApi)
  .add(PayoutsApi)
  .add(PayoutOperationsApi)
  .add(PurchasesManageApi)
  .add(ReportsApi)
  .add(CallsApi)
  .add(SubmissionsApi)
  .add(SubscriptionsApi)
  .add(ManageSubscriptionsApi)
  .add(CertificatesApi)
  .add(CertificatePagesApi)
  .add(OAuthServerApi)
  .add(OAuthConsentApi)
  .add(OAuthConnectionsApi)
  .add(McpEndpointApi)
  .add(AuditApi)
  .add(ApiKeysApi)
  .add(WebhooksApi)
  .add(NotificationsApi)
  .add(NotificationUnsubscribeApi)
  .add(ModerationApi)
  .add(PrivacyExportsApi)
  .add(ErasureApi)
  .addError(RequestRefused)
  .annotate(OpenApi.Title, "Roda API")
  .annotate(OpenApi.Version, "0.1.0")
  .annotate(OpenApi.Description, description)
  .annotate(OpenApi.License, { name: "MIT", url: "https://opensource.org/license/mit" })
  // Relative to the document (`…/api/openapi.json`): the API answers wherever Roda is mounted.
  .annotate(OpenApi.Servers, [{ url: "..", description: "Where this document is served, without `/api/openapi.json`" }])

/** The whole HTTP contract, composed from the feature groups. */
export class RodaApi extends groups.annotate(
  OpenApi.Transform,
  (spec) =>
    addWebhooks(
      polishDocument(groups, addRateLimitHeaders(groups, addScopeHeaders(groups, spec as never)) as never)
    ) as never
) {}
