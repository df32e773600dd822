import { SqlClient } from "@effect/sql"
import { Clock, Effect, Schema } from "effect"
import { conflict, invalidField } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { type CommunityId, Uuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import type { Viewer, Visibility } from "./Access"
import { audienceOf, type ViewerAudience } from "./audience"
import { structureMessages as M } from "./messages"
import { StructureRepo } from "./Repo"
import { checkSameSet } from "./rules"
import { sectionView } from "./view"
import { moreOpenThan } from "./Visibility"

/** Sections are listed by position, then id; the cursor is the last `[position, id]`. */
const SectionCursor = Schema.Tuple(CursorPart.int4, Uuid)

const staff: ViewerAudience = { kind: "staff" }

/** Sections: the top level of a community's structure, each holding spaces. */
export class Sections extends Effect.Service<Sections>()("@roda/core/Sections", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* StructureRepo
    const ids = yield* Ids
    const transaction = transactional(sql)

    const audience = (viewer: Viewer) => Effect.map(Clock.currentTimeMillis, (now) => audienceOf(viewer, new Date(now)))

    const find = (communityId: CommunityId, id: string, who: ViewerAudience) =>
      orNotFound(M.sectionNotFound)(repo.findSection(communityId, id.toLowerCase(), who))

    const list = traced("Sections.list")(function*(viewer: Viewer, query: PageQuery) {
      const page = yield* paginate(
        query,
        SectionCursor,
        (after, limit) =>
          Effect.flatMap(audience(viewer), (who) => repo.listSections(viewer.communityId, who, { limit, after })),
        (row) => [row.position, row.id]
      )
      return { items: page.items.map(sectionView), pagination: page.pagination }
    })

    const get = traced("Sections.get")(function*(viewer: Viewer, id: string) {
      return sectionView(yield* find(viewer.communityId, id, yield* audience(viewer)))
    })

    const create = traced("Sections.create")(function*(
      member: Member,
      input: { title: string; visibility?: Visibility | undefined }
    ) {
      yield* requireRole(member, staffRoles)
      const id = yield* ids.next
      yield* repo.insertSection({
        id,
        communityId: member.communityId,
        title: input.title,
        visibility: input.visibility ?? "public"
      })
      return sectionView(yield* find(member.communityId, id, staff))
    })

    const update = traced("Sections.update")(function*(
      member: Member,
      id: string,
      changes: { title?: string | undefined; visibility?: Visibility | undefined }
    ) {
      yield* requireRole(member, staffRoles)
      const communityId = member.communityId
      yield* transaction(Effect.gen(function*() {
        const section = yield* orNotFound(M.sectionNotFound)(repo.lockSection(communityId, id.toLowerCase()))
        const visibility = changes.visibility
        if (visibility !== undefined && visibility !== section.visibility) {
          const tooOpen = (yield* repo.spacesOfSection(communityId, section.id)).find((space) =>
            moreOpenThan(space.visibility, visibility)
          )
          if (tooOpen !== undefined) {
            const title = changes.title ?? section.title
            return yield* Effect.fail(invalidField(
              "visibility",
              M.sectionMoreClosed(title, visibility, tooOpen.title, tooOpen.visibility)
            ))
          }
        }
        const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
        if (Object.keys(set).length > 0) yield* repo.updateSection(communityId, section.id, set)
      }))
      return sectionView(yield* find(communityId, id, staff))
    })

    const remove = traced("Sections.remove")(function*(member: Member, id: string) {
      yield* requireRole(member, staffRoles)
      const communityId = member.communityId
      yield* transaction(Effect.gen(function*() {
        const section = yield* orNotFound(M.sectionNotFound)(repo.lockSection(communityId, id.toLowerCase()))
        if ((yield* repo.spacesOfSection(communityId, section.id)).length > 0) {
          return yield* Effect.fail(conflict(M.sectionHasSpaces))
        }
        yield* repo.deleteSection(communityId, section.id)
      }))
    })

    const reorder = traced("Sections.reorder")(function*(member: Member, order: ReadonlyArray<string>) {
      yield* requireRole(member, staffRoles)
      const communityId = member.communityId
      const wanted = order.map((id) => id.toLowerCase())
      yield* transaction(Effect.gen(function*() {
        yield* checkSameSet(yield* repo.lockSectionIds(communityId), wanted, M.sectionsReorderMismatch)
        if (wanted.length > 0) yield* repo.setSectionPositions(communityId, wanted)
      }))
      const rows = yield* repo.listSections(communityId, staff, { limit: wanted.length })
      return rows.slice(0, wanted.length).map(sectionView)
    })

    return { list, get, create, update, remove, reorder }
  }),
  dependencies: [StructureRepo.Default]
}) {}
