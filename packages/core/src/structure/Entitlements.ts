import { Context, type Effect } from "effect"

/** An entitlement to record: a profile holds a plan or a product, until `validUntil` (null: for good). */
export type NewEntitlement = {
  readonly id: string
  readonly communityId: string
  readonly profileId: string
  readonly sourceType: "plan" | "product"
  readonly sourceId: string
  readonly validUntil: Date | null
}

/**
 * Entitlements open secret and gated spaces (`audience.ts` reads them). Structure owns the table
 * (migration 0004); commerce grants them through this contract when a charge is paid, in the
 * caller's transaction (`EntitlementsLive` runs on the context's SqlClient).
 */
export class Entitlements extends Context.Tag("@roda/core/Entitlements")<Entitlements, {
  readonly grant: (rows: ReadonlyArray<NewEntitlement>) => Effect.Effect<void>
  /**
   * Ends, at `at`, one open entitlement of the profile to the plan or product (a refunded purchase
   * takes back the access it gave; another purchase of the same product keeps its own).
   */
  readonly endOne: (input: {
    readonly communityId: string
    readonly profileId: string
    readonly sourceType: "plan" | "product"
    readonly sourceId: string
    readonly at: Date
  }) => Effect.Effect<void>
  /**
   * Moves the end of the time-limited entitlements (`validUntil` not null: what subscriptions grant)
   * of a profile to the sources to `validUntil` (now: access ends; later: access goes on), granting
   * one when the profile has none of that source. Entitlements for good (one-time purchases) stay.
   */
  readonly setUntil: (rows: ReadonlyArray<NewEntitlement & { readonly validUntil: Date }>) => Effect.Effect<void>
}>() {}
