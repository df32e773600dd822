import { Context, type Effect, type Option } from "effect"
import type { CommunityId } from "../domain/Ids"

/**
 * The time zone a community keeps (its settings' `timezone`, an IANA name set with
 * `PATCH /api/communities/{id}/settings`): the calendar its reports cut days, weeks and months in
 * (read contract; `communities` owns the settings, `CommunityTimeZoneLive` reads them).
 */
export class CommunityTimeZone extends Context.Tag("@roda/core/CommunityTimeZone")<CommunityTimeZone, {
  /** The community's IANA time zone (one SQL); none when it set none. */
  readonly of: (communityId: CommunityId) => Effect.Effect<Option.Option<string>>
}>() {}
