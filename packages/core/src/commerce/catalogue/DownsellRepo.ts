import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId } from "../../domain/Ids"

/** The editable columns of a downsell offer. */
export type OfferFields = {
  readonly percentOff: number
  readonly durationCycles: number
  readonly message: string | null
  readonly active: boolean
}

const OfferRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  groupId: Schema.String,
  percentOff: Schema.Number,
  durationCycles: Schema.Number,
  message: Schema.NullOr(Schema.String),
  active: Schema.Boolean,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type OfferRow = typeof OfferRow.Type

/** SQL for the downsell offers of plans. */
export class DownsellRepo extends Effect.Service<DownsellRepo>()("@roda/core/DownsellRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const decodeOffers = Schema.decodeUnknown(Schema.Array(OfferRow))
    const select = sql`SELECT id, community_id, group_id, percent_off, duration_cycles, message, active, created_at,
      updated_at FROM downsell_offers`
    return {
      find: (communityId: CommunityId, groupId: string, id: string) =>
        sql`${select} WHERE community_id = ${communityId} AND group_id = ${groupId} AND id = ${id}`.pipe(
          Effect.flatMap(decodeOffers),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),
      /** Oldest first (UUIDv7 ids); keyset on the id. */
      list: (
        communityId: CommunityId,
        groupId: string,
        page: { readonly limit: number; readonly after?: string | undefined }
      ) =>
        sql`${select} WHERE community_id = ${communityId} AND group_id = ${groupId}
          ${page.after ? sql`AND id > ${page.after}` : sql``}
          ORDER BY id LIMIT ${page.limit + 1}`.pipe(Effect.flatMap(decodeOffers), Effect.orDie),
      insert: (row: OfferFields & { id: string; communityId: CommunityId; groupId: string; at: Date }) =>
        sql`INSERT INTO downsell_offers (id, community_id, group_id, percent_off, duration_cycles, message, active,
            created_at, updated_at)
          VALUES (${row.id}, ${row.communityId}, ${row.groupId}, ${row.percentOff}, ${row.durationCycles},
            ${row.message}, ${row.active}, ${row.at}, ${row.at})`.pipe(Effect.asVoid, Effect.orDie),
      update: (communityId: CommunityId, id: string, fields: OfferFields, at: Date) =>
        sql`UPDATE downsell_offers SET percent_off = ${fields.percentOff}, duration_cycles = ${fields.durationCycles},
            message = ${fields.message}, active = ${fields.active}, updated_at = ${at}
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      remove: (communityId: CommunityId, id: string) =>
        sql`DELETE FROM downsell_offers WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
    }
  })
}) {}
