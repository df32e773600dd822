import { Layer } from "effect"
import { ApiKeyAccessLive } from "../apiKeys/AccessLive"
import { ApiKeysRepo } from "../apiKeys/Repo"
import { OperatorAuditLive } from "../audit/OperatorAuditLive"
import { SubmissionSubjectsLive } from "../call4papers/submissions/SubmissionSubjectsLive"
import { AccessCatalogLive } from "../commerce/catalogue/AccessCatalogLive"
import { SellableProductsLive } from "../commerce/catalogue/SellableProductsLive"
import { StockLive } from "../commerce/catalogue/StockLive"
import { ChargeDisputesLive } from "../commerce/checkout/ChargeDisputesLive"
import { CouponRedemptionLive } from "../commerce/coupons/CouponRedemptionLive"
import { SubscribingLive } from "../commerce/subscriptions/SubscribingLive"
import { SubscriptionStatsLive } from "../commerce/subscriptions/SubscriptionStatsLive"
import { CommunityTimeZoneLive } from "../communities/CommunityTimeZoneLive"
import { MembershipsLive } from "../communities/MembershipsLive"
import { MemberStatsLive } from "../communities/MemberStatsLive"
import { Profiles } from "../communities/Profiles"
import { CourseStatsLive } from "../courses/CourseStatsLive"
import { EventStatsLive } from "../events/EventStatsLive"
import { EventModerationLive } from "../events/ModerationLive"
import { Identity } from "../identity/Identity"
import { Sessions } from "../identity/Sessions"
import { SellingStatusLive } from "../money/accounts/SellingStatusLive"
import { LedgerPostingLive } from "../money/ledger/LedgerPostingLive"
import { PricingLive } from "../money/ledger/PricingLive"
import { SalesStatsLive } from "../money/ledger/SalesStatsLive"
import { NotifyLive } from "../notifications/NotifyLive"
import { AccountGrantsLive } from "../oauth/GrantsLive"
import { McpAccessLive } from "../oauth/McpAccessLive"
import type { PersonalData } from "../privacy/PersonalData"
import { EngagementStatsLive } from "../social/EngagementStatsLive"
import { SocialModerationLive } from "../social/ModerationLive"
import { SocialPendingLive } from "../social/PendingLive"
import { AccessLive } from "../structure/AccessLive"
import { EntitlementsLive } from "../structure/EntitlementsLive"
import { WebhooksRepo } from "../webhooks/Repo"
import { WebhookEventsLive } from "../webhooks/WebhookEventsLive"
import { PersonalDataLive } from "./personalData"

/** The webhooks' outbox, written by every feature whose changes are events (issue 54). */
const webhookEvents = WebhookEventsLive.pipe(Layer.provide(WebhooksRepo.Default))

/**
 * What one feature offers the others (its contract, see `structure/Access.ts`), implemented by the
 * feature that owns the tables. The first tier needs only the platform; the second builds on it.
 * A new feature that only consumes contracts does not touch this file.
 */
const tiers = Layer.mergeAll(
  AccessLive,
  EntitlementsLive,
  // a member who joins follows the feed spaces (notifications' Notify)
  Profiles.Default.pipe(Layer.provide(NotifyLive.pipe(Layer.provide(AccessLive)))),
  Identity.Default,
  Sessions.Default,
  // the OAuth server's contract with @roda/mcp (issue 15); Identity is the same (memoised) layer
  McpAccessLive.pipe(Layer.provide(Identity.Default)),
  // notifications, written by the features whose changes concern members (issue 55); readers per Access
  NotifyLive.pipe(Layer.provide(AccessLive)),
  // what moderation reads and does of posts, comments and submissions (issue 56); readers per Access
  SocialModerationLive.pipe(Layer.provide(AccessLive)),
  // moderation's queue of held posts and comments; their approval notifies (issue 56)
  SocialPendingLive.pipe(Layer.provide(NotifyLive.pipe(Layer.provide(AccessLive)))),
  SubmissionSubjectsLive.pipe(Layer.provide(AccessLive)),
  // what moderation does to events: hide, remove with its notices and webhook event (issue 56)
  EventModerationLive.pipe(Layer.provide(NotifyLive.pipe(Layer.provide(AccessLive))))
).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      AccessCatalogLive,
      StockLive,
      SellableProductsLive,
      CouponRedemptionLive,
      // a ban removes the member with its member.left event (issue 56)
      MembershipsLive.pipe(Layer.provide(webhookEvents)),
      SellingStatusLive,
      PricingLive,
      LedgerPostingLive,
      // read contracts of the reports (issue 12)
      SalesStatsLive,
      SubscriptionStatsLive,
      MemberStatsLive,
      CommunityTimeZoneLive,
      EngagementStatsLive,
      EventStatsLive,
      CourseStatsLive,
      // who among the operators did what (issue 16)
      OperatorAuditLive,
      // an account's OAuth grants, ended with its sessions (issue 52)
      AccountGrantsLive,
      // API keys, checked by the request middleware and the MCP server (issue 54)
      ApiKeyAccessLive.pipe(Layer.provide(ApiKeysRepo.Default)),
      // the webhooks' outbox, written by every feature whose changes are events (issue 54)
      webhookEvents
    )
  )
)

/**
 * Subscriptions post what the gateway reports of their charges: built on the ledger and pricing
 * above, and on checkout's gateway disputes (their renewals' disputes hold money as checkout's do).
 */
export const contractsLayer = (PersonalDataLive as Layer.Layer<PersonalData>).pipe(
  // Members' data rights (issue 56): every feature's export files and erasure step, built on the
  // contracts above and the platform (a part needs only those, and provides its own feature's
  // repositories itself). Their lists type the parts' needs as `any`: a missing one fails at start-up.
  Layer.provideMerge(SubscribingLive.pipe(
    Layer.provideMerge(ChargeDisputesLive),
    Layer.provideMerge(tiers)
  ))
)
