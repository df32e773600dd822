import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { CommunityId, SectionId, SpaceId } from "../domain/Ids"
import { decodeRows } from "../domain/Rows"
import { type Audience, sectionVisible, spaceRules, type ViewerAudience } from "./audience"
import type { NewEntitlement } from "./Entitlements"

const PostingPolicy = Schema.Literal("members", "staff")
export type PostingPolicy = typeof PostingPolicy.Type
const Visibility = Schema.Literal("public", "private", "secret")
type Visibility = typeof Visibility.Type

export const SectionRow = Schema.Struct({
  id: SectionId,
  communityId: CommunityId,
  title: Schema.String,
  visibility: Visibility,
  position: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf
})
export type SectionRow = typeof SectionRow.Type

export const SpaceRow = Schema.Struct({
  id: SpaceId,
  communityId: CommunityId,
  sectionId: SectionId,
  title: Schema.String,
  module: Schema.String,
  visibility: Visibility,
  accessSubscriptionGroupIds: Schema.Array(Schema.String),
  accessProductIds: Schema.Array(Schema.String),
  postingPolicy: PostingPolicy,
  position: Schema.Number,
  createdAt: Schema.DateFromSelf,
  updatedAt: Schema.DateFromSelf,
  sectionTitle: Schema.String,
  sectionVisibility: Visibility,
  sectionPosition: Schema.Number,
  /** Whether the audience of the query may read the space's content. */
  canReadContent: Schema.Boolean
})
export type SpaceRow = typeof SpaceRow.Type

const decodeSections = decodeRows(SectionRow)
const decodeSpaces = decodeRows(SpaceRow)
const decodeSectionIds = decodeRows(Schema.Struct({ id: SectionId }))
const decodeSpaceIds = decodeRows(Schema.Struct({ id: SpaceId }))
const decodeSpaceSummaries = decodeRows(Schema.Struct({ id: SpaceId, title: Schema.String, visibility: Visibility }))
const decodeLockedSpaces = decodeRows(
  Schema.Struct({ id: SpaceId, sectionId: SectionId, title: Schema.String, visibility: Visibility })
)
const decodePositions = decodeRows(Schema.Struct({ position: Schema.Number }))

export interface SpaceChanges {
  readonly sectionId?: string
  readonly title?: string
  readonly module?: string
  readonly visibility?: Visibility
  readonly accessSubscriptionGroupIds?: ReadonlyArray<string>
  readonly accessProductIds?: ReadonlyArray<string>
  readonly postingPolicy?: PostingPolicy
  readonly position?: number
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** SQL for sections and spaces; every read of a space applies the access rules of `audience.ts`. */
export class StructureRepo extends Effect.Service<StructureRepo>()("@roda/core/StructureRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** `SELECT s.id FROM spaces s JOIN sections sec …`: the spaces whose content `audience` may read. */
    const readableSpaces = (communityId: CommunityId, audience: Audience) =>
      sql`SELECT s.id FROM spaces s
          JOIN sections sec ON sec.community_id = s.community_id AND sec.id = s.section_id
          WHERE s.community_id = ${communityId} AND ${spaceRules(sql, audience).readable}`
    const sectionColumns = sql`sec.id, sec.community_id, sec.title, sec.visibility, sec.position, sec.created_at,
      sec.updated_at`
    const spaceSelect = (audience: Audience) =>
      sql`SELECT s.id, s.community_id, s.section_id, s.title, s.module, s.visibility,
        s.access_subscription_group_ids, s.access_product_ids, s.posting_policy, s.position, s.created_at,
        s.updated_at, sec.title AS section_title, sec.visibility AS section_visibility,
        sec.position AS section_position, ${spaceRules(sql, audience).readable} AS can_read_content
        FROM spaces s JOIN sections sec ON sec.community_id = s.community_id AND sec.id = s.section_id`
    /** Positions follow the order of `ids`, in one statement. */
    const positions = (ids: ReadonlyArray<string>) => sql.csv(ids.map((id, index) => sql`(${id}::uuid, ${index}::int)`))

    return {
      /** Records entitlements (the `Entitlements` contract). */
      insertEntitlements: (rows: ReadonlyArray<NewEntitlement>) =>
        rows.length === 0
          ? Effect.void
          : sql`INSERT INTO entitlements ${sql.insert(rows)}`.pipe(Effect.asVoid, Effect.orDie),
      endOneEntitlement: (input: {
        readonly communityId: string
        readonly profileId: string
        readonly sourceType: "plan" | "product"
        readonly sourceId: string
        readonly at: Date
      }) =>
        sql`UPDATE entitlements SET valid_until = ${input.at} WHERE id = (
            SELECT id FROM entitlements
            WHERE community_id = ${input.communityId} AND profile_id = ${input.profileId}
              AND source_type = ${input.sourceType} AND source_id = ${input.sourceId}
              AND (valid_until IS NULL OR valid_until > ${input.at})
            ORDER BY valid_until DESC NULLS FIRST, created_at LIMIT 1 FOR UPDATE)`.pipe(Effect.asVoid, Effect.orDie),
      listSections: (
        communityId: CommunityId,
        audience: ViewerAudience,
        page: { readonly limit: number; readonly after?: readonly [number, string] | undefined }
      ) =>
        sql`SELECT ${sectionColumns} FROM sections sec
          WHERE sec.community_id = ${communityId} AND ${sectionVisible(sql, audience)}
            ${page.after ? sql`AND (sec.position, sec.id) > (${page.after[0]}, ${page.after[1]}::uuid)` : sql``}
          ORDER BY sec.position, sec.id LIMIT ${page.limit + 1}`.pipe(Effect.orDie, Effect.flatMap(decodeSections)),
      findSection: (communityId: CommunityId, id: string, audience: ViewerAudience) =>
        sql`SELECT ${sectionColumns} FROM sections sec
          WHERE sec.community_id = ${communityId} AND sec.id = ${id} AND ${sectionVisible(sql, audience)}`.pipe(
          Effect.flatMap(decodeSections),
          Effect.map(first),
          Effect.orDie
        ),
      /** The section, locked: space and section visibility changes are serialised per section. */
      lockSection: (communityId: CommunityId, id: string) =>
        sql`SELECT ${sectionColumns} FROM sections sec
          WHERE sec.community_id = ${communityId} AND sec.id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(decodeSections),
          Effect.map(first),
          Effect.orDie
        ),
      insertSection: (row: { id: string; communityId: CommunityId; title: string; visibility: Visibility }) =>
        sql`INSERT INTO sections (id, community_id, title, visibility, position)
          SELECT ${row.id}, ${row.communityId}, ${row.title}, ${row.visibility}, COALESCE(max(position) + 1, 0)
          FROM sections WHERE community_id = ${row.communityId}`.pipe(Effect.asVoid, Effect.orDie),
      updateSection: (communityId: CommunityId, id: string, changes: { title?: string; visibility?: Visibility }) =>
        sql`UPDATE sections SET ${sql.update(changes)}, updated_at = now()
          WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      deleteSection: (communityId: CommunityId, id: string) =>
        sql`DELETE FROM sections WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie),
      /** Every section id of the community, locked, in their current order. */
      lockSectionIds: (communityId: CommunityId) =>
        sql`SELECT id FROM sections WHERE community_id = ${communityId}
          ORDER BY position, id FOR UPDATE`.pipe(
          Effect.flatMap(decodeSectionIds),
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        ),
      setSectionPositions: (communityId: CommunityId, ids: ReadonlyArray<string>) =>
        sql`UPDATE sections SET position = v.position, updated_at = now()
          FROM (VALUES ${positions(ids)}) AS v(id, position)
          WHERE sections.community_id = ${communityId} AND sections.id = v.id`.pipe(Effect.asVoid, Effect.orDie),

      /** Title and visibility of every space of a section (to keep them within the section's visibility). */
      spacesOfSection: (communityId: CommunityId, sectionId: string) =>
        sql`SELECT id, title, visibility FROM spaces
          WHERE community_id = ${communityId} AND section_id = ${sectionId} ORDER BY position, id`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeSpaceSummaries)
        ),
      listSpaces: (
        communityId: CommunityId,
        audience: Audience,
        page: {
          readonly sectionId?: string | undefined
          readonly limit: number
          readonly after?: readonly [number, number, string] | undefined
        }
      ) =>
        sql`${spaceSelect(audience)}
          WHERE s.community_id = ${communityId} AND ${spaceRules(sql, audience).visible}
            ${page.sectionId ? sql`AND s.section_id = ${page.sectionId}` : sql``}
            ${
          page.after
            ? sql`AND (sec.position, s.position, s.id) > (${page.after[0]}, ${page.after[1]}, ${page.after[2]}::uuid)`
            : sql``
        }
          ORDER BY sec.position, s.position, s.id LIMIT ${page.limit + 1}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeSpaces)
        ),
      /** The space when `audience` may see it, with whether it may read its content. */
      findSpace: (communityId: CommunityId, id: string, audience: Audience) =>
        sql`${spaceSelect(audience)}
          WHERE s.community_id = ${communityId} AND s.id = ${id} AND ${spaceRules(sql, audience).visible}`.pipe(
          Effect.flatMap(decodeSpaces),
          Effect.map(first),
          Effect.orDie
        ),
      /** Ids of the spaces whose content `audience` may read. */
      readableSpaceIds: (communityId: CommunityId, audience: Audience) =>
        sql`${readableSpaces(communityId, audience)}
          ORDER BY sec.position, s.position, s.id`.pipe(
          Effect.flatMap(decodeSpaceIds),
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        ),
      readableSpaces,
      lockSpace: (communityId: CommunityId, id: string) =>
        sql`SELECT id, section_id, title,
          visibility FROM spaces WHERE community_id = ${communityId} AND id = ${id} FOR UPDATE`.pipe(
          Effect.flatMap(decodeLockedSpaces),
          Effect.map(first),
          Effect.orDie
        ),
      /** The next free position at the end of a section. */
      nextSpacePosition: (communityId: CommunityId, sectionId: string) =>
        sql`SELECT COALESCE(max(position) + 1, 0)::int AS position FROM spaces
          WHERE community_id = ${communityId} AND section_id = ${sectionId}`.pipe(
          Effect.flatMap(decodePositions),
          Effect.map((rows) => rows[0]?.position ?? 0),
          Effect.orDie
        ),
      insertSpace: (row: {
        id: string
        communityId: CommunityId
        sectionId: string
        title: string
        module: string
        visibility: Visibility
        accessSubscriptionGroupIds: ReadonlyArray<string>
        accessProductIds: ReadonlyArray<string>
        postingPolicy: PostingPolicy
        position: number
      }) =>
        sql`INSERT INTO spaces (id, community_id, section_id, title, module, visibility,
            access_subscription_group_ids, access_product_ids, posting_policy, position)
          VALUES (${row.id}, ${row.communityId}, ${row.sectionId}, ${row.title}, ${row.module}, ${row.visibility},
            ${uuidArray(row.accessSubscriptionGroupIds)}::uuid[], ${uuidArray(row.accessProductIds)}::uuid[],
            ${row.postingPolicy}, ${row.position})`.pipe(Effect.asVoid, Effect.orDie),
      updateSpace: (communityId: CommunityId, id: string, changes: SpaceChanges) => {
        const { accessProductIds, accessSubscriptionGroupIds, ...plain } = changes
        const sets = [
          ...Object.entries(plain).map(([key, value]) => sql`${sql(key)} = ${value}`),
          ...(accessSubscriptionGroupIds
            ? [sql`access_subscription_group_ids = ${uuidArray(accessSubscriptionGroupIds)}::uuid[]`]
            : []),
          ...(accessProductIds ? [sql`access_product_ids = ${uuidArray(accessProductIds)}::uuid[]`] : []),
          sql`updated_at = now()`
        ]
        return sql`UPDATE spaces SET ${sql.csv(sets)} WHERE community_id = ${communityId} AND id = ${id}`.pipe(
          Effect.asVoid,
          Effect.orDie
        )
      },
      /** Fails with the SqlError of a foreign-key violation while content still belongs to the space. */
      deleteSpace: (communityId: CommunityId, id: string) =>
        sql`DELETE FROM spaces WHERE community_id = ${communityId} AND id = ${id}`.pipe(Effect.asVoid),
      /** Every space id of a section, locked, in their current order. */
      lockSpaceIds: (communityId: CommunityId, sectionId: string) =>
        sql`SELECT id FROM spaces WHERE community_id = ${communityId} AND section_id = ${sectionId}
          ORDER BY position, id FOR UPDATE`.pipe(
          Effect.flatMap(decodeSpaceIds),
          Effect.map((rows) => rows.map((r) => r.id)),
          Effect.orDie
        ),
      setSpacePositions: (communityId: CommunityId, ids: ReadonlyArray<string>) =>
        sql`UPDATE spaces SET position = v.position, updated_at = now()
          FROM (VALUES ${positions(ids)}) AS v(id, position)
          WHERE spaces.community_id = ${communityId} AND spaces.id = v.id`.pipe(Effect.asVoid, Effect.orDie)
    }
  })
}) {}

/** A Postgres array literal of UUIDs (values are validated UUIDs), bound as one text parameter. */
const uuidArray = (ids: ReadonlyArray<string>) => `{${ids.join(",")}}`
