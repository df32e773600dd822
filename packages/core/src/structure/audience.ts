import type { SqlClient, Statement } from "@effect/sql"
import { Option } from "effect"
import { isStaff } from "../domain/Role"
import { isStaffSql } from "../sql/roles"
import type { CallerColumns, Viewer } from "./Access"

/**
 * Who is looking, reduced to what the access rules need: staff see everything, a member's
 * entitlements (valid at `now`) open secret and gated spaces, an anonymous visitor sees public only.
 */
export type ViewerAudience =
  | { readonly kind: "staff" }
  | { readonly kind: "member"; readonly profileId: string | Statement.Fragment; readonly now: Date }
  | { readonly kind: "anonymous" }

/** Also a caller read in the same statement (`CallerColumns`), whose kind SQL decides row by row. */
export type Audience =
  | ViewerAudience
  | { readonly kind: "caller"; readonly caller: CallerColumns; readonly now: Date }

export const audienceOf = (viewer: Viewer, now: Date): ViewerAudience =>
  Option.match(viewer.member, {
    onNone: (): ViewerAudience => ({ kind: "anonymous" }),
    onSome: (member): ViewerAudience =>
      isStaff(member.role) ? { kind: "staff" } : { kind: "member", profileId: member.profileId, now }
  })

/**
 * The access rules as SQL, over a space `s` joined with its section `sec`: the one definition
 * that lists, details and the `Access` service all use.
 */
export const spaceRules = (
  sql: SqlClient.SqlClient,
  audience: Audience
): { readonly visible: Statement.Fragment; readonly readable: Statement.Fragment } => {
  switch (audience.kind) {
    case "staff":
      return { visible: sql`TRUE`, readable: sql`TRUE` }
    case "anonymous": {
      const visible = sql`(s.visibility = 'public' AND sec.visibility = 'public')`
      return {
        visible,
        readable: sql`(${visible} AND cardinality(s.access_subscription_group_ids) = 0
          AND cardinality(s.access_product_ids) = 0)`
      }
    }
    case "member": {
      const entitled = sql`EXISTS (SELECT 1 FROM entitlements e
        WHERE e.community_id = s.community_id AND e.profile_id = ${audience.profileId}
          AND (e.valid_until IS NULL OR e.valid_until > ${audience.now})
          AND ((e.source_type = 'plan' AND e.source_id = ANY(s.access_subscription_group_ids))
            OR (e.source_type = 'product' AND e.source_id = ANY(s.access_product_ids))))`
      const open = sql`(s.visibility <> 'secret' AND sec.visibility <> 'secret')`
      return {
        visible: sql`(${open} OR ${entitled})`,
        readable: sql`((${open} AND cardinality(s.access_subscription_group_ids) = 0
          AND cardinality(s.access_product_ids) = 0) OR ${entitled})`
      }
    }
    case "caller": {
      const { profileId, role } = audience.caller
      const member = spaceRules(sql, { kind: "member", profileId, now: audience.now })
      const anonymous = spaceRules(sql, { kind: "anonymous" })
      const staff = isStaffSql(sql, role)
      const either = (rule: "visible" | "readable") =>
        sql`(${staff} OR CASE WHEN ${profileId} IS NULL THEN ${anonymous[rule]} ELSE ${member[rule]} END)`
      return { visible: either("visible"), readable: either("readable") }
    }
  }
}

/**
 * Sections a viewer sees, over a section `sec`: staff all; anonymous visitors public ones; members
 * public and private ones, and a secret one only when they see a space in it.
 */
export const sectionVisible = (sql: SqlClient.SqlClient, audience: ViewerAudience): Statement.Fragment => {
  switch (audience.kind) {
    case "staff":
      return sql`TRUE`
    case "anonymous":
      return sql`sec.visibility = 'public'`
    case "member":
      return sql`(sec.visibility <> 'secret' OR EXISTS (SELECT 1 FROM spaces s
        WHERE s.community_id = sec.community_id AND s.section_id = sec.id AND ${spaceRules(sql, audience).visible}))`
  }
}
