import { type SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import type { OfferSide, OfferStatus } from "./Policy"
import { OfferRow, type OfferTerms, rowsOf } from "./rows"

const decodeOffers = rowsOf(OfferRow)
const decodeIds = rowsOf(Schema.Struct({ id: Schema.String }))

/** The offers of a negotiation. */
export const offerStatements = (sql: SqlClient.SqlClient) => ({
  offers: (communityId: string, submissionId: string) =>
    sql`SELECT o.id, o.submission_id, o.version, o.side, o.author_profile_id, p.full_name AS author_name,
        o.format, o.duration_minutes, o.track_id, t.name AS track_name, o.fee::text AS fee, o.currency, o.note,
        o.status, o.created_at, o.closed_at
        FROM call4papers_offers o
        JOIN member_cards p ON p.community_id = o.community_id AND p.id = o.author_profile_id
        LEFT JOIN call4papers_tracks t ON t.community_id = o.community_id AND t.id = o.track_id
        WHERE o.community_id = ${communityId} AND o.submission_id = ${submissionId}
        ORDER BY o.version`.pipe(Effect.flatMap(decodeOffers), Effect.orDie),
  insertOffer: (row: {
    id: string
    communityId: string
    submissionId: string
    side: OfferSide
    authorProfileId: string
    terms: OfferTerms
    now: Date
  }) =>
    sql`INSERT INTO call4papers_offers (id, community_id, submission_id, version, side, author_profile_id,
        format, duration_minutes, track_id, fee, currency, note, status, created_at)
        VALUES (${row.id}, ${row.communityId}, ${row.submissionId},
          (SELECT coalesce(max(version), 0) + 1 FROM call4papers_offers
            WHERE community_id = ${row.communityId} AND submission_id = ${row.submissionId}),
          ${row.side}, ${row.authorProfileId}, ${row.terms.format}, ${row.terms.durationMinutes},
          ${row.terms.trackId}, ${row.terms.fee}, ${row.terms.currency}, ${row.terms.note}, 'open', ${row.now})`
      .pipe(Effect.asVoid, Effect.orDie),
  /** Closes the open offer (if any) with `status`; its id. */
  closeOpenOffer: (
    communityId: string,
    submissionId: string,
    status: Exclude<OfferStatus, "open">,
    byProfileId: string,
    now: Date
  ) =>
    sql`UPDATE call4papers_offers SET status = ${status}, closed_at = ${now},
        closed_by_profile_id = ${byProfileId}
        WHERE community_id = ${communityId} AND submission_id = ${submissionId} AND status = 'open'
        RETURNING id`.pipe(
      Effect.flatMap(decodeIds),
      Effect.map((rows) => Option.fromNullable(rows[0]?.id)),
      Effect.orDie
    )
})
