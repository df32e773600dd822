import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { conflict, invalidField } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { type CommunityId, isUuid, Uuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { foreignKeyViolation } from "../sql/errors"
import { transactional } from "../sql/transaction"
import { AccessCatalog, type Viewer, type Visibility } from "./Access"
import { type Audience, audienceOf } from "./audience"
import { structureMessages as M } from "./messages"
import { type PostingPolicy, type SpaceChanges, StructureRepo } from "./Repo"
import { checkGrants, checkSameSet, type GrantsInput, normalizeGrants } from "./rules"
import { spaceView } from "./view"
import { moreOpenThan } from "./Visibility"

/** Spaces are listed by section position, then position in the section, then id. */
const SpaceCursor = Schema.Tuple(CursorPart.int4, CursorPart.int4, Uuid)

const staff: Audience = { kind: "staff" }

export interface SpaceInput {
  readonly sectionId?: string | undefined
  readonly title?: string | undefined
  readonly module?: string | undefined
  readonly visibility?: Visibility | undefined
  readonly access?: GrantsInput | undefined
  readonly postingPolicy?: PostingPolicy | undefined
}

/** Spaces: the rooms of a section, each running one module (courses, feed, events…). */
export class Spaces extends Effect.Service<Spaces>()("@roda/core/Spaces", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* StructureRepo
    const catalog = yield* AccessCatalog
    const ids = yield* Ids
    const transaction = transactional(sql)

    const audience = (viewer: Viewer) => Effect.map(Clock.currentTimeMillis, (now) => audienceOf(viewer, new Date(now)))
    const sectionRefused = invalidField("sectionId", M.sectionOfSpaceNotFound)

    const find = (communityId: CommunityId, id: string, who: Audience) =>
      orNotFound(M.spaceUnknown)(repo.findSpace(communityId, id.toLowerCase(), who))

    /** The section a space goes in, locked: 400 (spec §7) when missing or of another community. */
    const lockTargetSection = (communityId: CommunityId, sectionId: string | undefined) =>
      sectionId === undefined || !isUuid(sectionId)
        ? Effect.fail(sectionRefused)
        : Effect.flatMap(
          repo.lockSection(communityId, sectionId.toLowerCase()),
          Option.match({ onNone: () => Effect.fail(sectionRefused), onSome: Effect.succeed })
        )

    const withinSection = (visibility: Visibility, section: { title: string; visibility: Visibility }) =>
      moreOpenThan(visibility, section.visibility)
        ? Effect.fail(invalidField("visibility", M.spaceMoreOpen(section.title, section.visibility)))
        : Effect.void

    const list = traced("Spaces.list")(function*(
      viewer: Viewer,
      query: PageQuery & { sectionId?: string | undefined }
    ) {
      const page = yield* paginate(
        query,
        SpaceCursor,
        (after, limit) =>
          Effect.flatMap(
            audience(viewer),
            (who) =>
              repo.listSpaces(viewer.communityId, who, { sectionId: query.sectionId?.toLowerCase(), limit, after })
          ),
        (row) => [row.sectionPosition, row.position, row.id]
      )
      return { items: page.items.map(spaceView), pagination: page.pagination }
    })

    const get = traced("Spaces.get")(function*(viewer: Viewer, id: string) {
      return spaceView(yield* find(viewer.communityId, id, yield* audience(viewer)))
    })

    const create = traced("Spaces.create")(function*(
      member: Member,
      input: SpaceInput & { title: string; module: string }
    ) {
      yield* requireRole(member, staffRoles)
      const communityId = member.communityId
      const grants = normalizeGrants(input.access ?? {})
      const id = yield* ids.next
      yield* transaction(Effect.gen(function*() {
        const section = yield* lockTargetSection(communityId, input.sectionId)
        const visibility = input.visibility ?? section.visibility
        yield* withinSection(visibility, section)
        yield* checkGrants(catalog, communityId, grants)
        yield* repo.insertSpace({
          id,
          communityId,
          sectionId: section.id,
          title: input.title,
          module: input.module,
          visibility,
          accessSubscriptionGroupIds: grants.subscriptionGroupIds,
          accessProductIds: grants.productIds,
          postingPolicy: input.postingPolicy ?? "members",
          position: yield* repo.nextSpacePosition(communityId, section.id)
        })
      }))
      return spaceView(yield* find(communityId, id, staff))
    })

    const update = traced("Spaces.update")(function*(member: Member, id: string, input: SpaceInput) {
      yield* requireRole(member, staffRoles)
      const communityId = member.communityId
      const spaceId = id.toLowerCase()
      /**
       * False, with nothing written, when another request moved the space between reading it and
       * locking it: the sections locked are then not its own (a title edit would move it back).
       */
      const attempt = transaction(Effect.gen(function*() {
        const before = yield* find(communityId, spaceId, staff)
        const moving = input.sectionId !== undefined && input.sectionId.toLowerCase() !== before.sectionId
        // Sections first, in id order, then the space: the lock order of every structure change.
        const targetId = moving ? input.sectionId : before.sectionId
        const toLock = moving && isUuid(targetId!) ? [before.sectionId, targetId!.toLowerCase()] : [before.sectionId]
        for (const sectionId of toLock.sort()) yield* repo.lockSection(communityId, sectionId)
        const section = yield* lockTargetSection(communityId, targetId)
        const current = yield* orNotFound(M.spaceUnknown)(repo.lockSpace(communityId, spaceId))
        if (current.sectionId !== before.sectionId) return false
        const visibility = input.visibility ?? current.visibility
        yield* withinSection(visibility, section)
        const changes: { -readonly [K in keyof SpaceChanges]: SpaceChanges[K] } = {}
        if (input.title !== undefined) changes.title = input.title
        if (input.module !== undefined) changes.module = input.module
        if (input.visibility !== undefined) changes.visibility = input.visibility
        if (input.postingPolicy !== undefined) changes.postingPolicy = input.postingPolicy
        if (input.access !== undefined) {
          const grants = normalizeGrants(input.access)
          yield* checkGrants(catalog, communityId, grants)
          if (input.access.subscriptionGroupIds !== undefined) {
            changes.accessSubscriptionGroupIds = grants.subscriptionGroupIds
          }
          if (input.access.productIds !== undefined) changes.accessProductIds = grants.productIds
        }
        if (section.id !== current.sectionId) {
          changes.sectionId = section.id
          changes.position = yield* repo.nextSpacePosition(communityId, section.id)
        }
        if (Object.keys(changes).length > 0) yield* repo.updateSpace(communityId, spaceId, changes)
        return true
      }))
      // The space moved meanwhile: read it again and lock the section it is in now.
      while (!(yield* attempt)) continue
      return spaceView(yield* find(communityId, spaceId, staff))
    })

    const remove = traced("Spaces.remove")(function*(member: Member, id: string) {
      yield* requireRole(member, staffRoles)
      const communityId = member.communityId
      const space = yield* find(communityId, id, staff)
      yield* repo.deleteSpace(communityId, space.id).pipe(
        Effect.catchAll((error) =>
          foreignKeyViolation(error) ? Effect.fail(conflict(M.spaceHasContent)) : Effect.die(error)
        )
      )
    })

    const reorder = traced("Spaces.reorder")(function*(
      member: Member,
      sectionId: string | undefined,
      order: ReadonlyArray<string>
    ) {
      yield* requireRole(member, staffRoles)
      const communityId = member.communityId
      const wanted = order.map((id) => id.toLowerCase())
      const section = yield* transaction(Effect.gen(function*() {
        const section = yield* lockTargetSection(communityId, sectionId)
        yield* checkSameSet(yield* repo.lockSpaceIds(communityId, section.id), wanted, M.spacesReorderMismatch)
        if (wanted.length > 0) yield* repo.setSpacePositions(communityId, wanted)
        return section
      }))
      const rows = yield* repo.listSpaces(communityId, staff, { sectionId: section.id, limit: wanted.length })
      return rows.slice(0, wanted.length).map(spaceView)
    })

    return { list, get, create, update, remove, reorder }
  }),
  dependencies: [StructureRepo.Default]
}) {}
