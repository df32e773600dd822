import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { forbidden, notFound } from "../domain/AppError"
import type { DeferredVisitor, Member } from "../domain/Caller"
import { slugify } from "../domain/Fields"
import { orNotFound } from "../domain/found"
import { Uuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { type PageQuery, paginate } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { isStaff, staffRoles } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { uniqueViolation } from "../sql/errors"
import { insertWithFreeSlug as insertFreeSlug, slugTaken } from "../sql/freeSlug"
import { transactional } from "../sql/transaction"
import { Access, type Viewer, viewerOfMember, viewerOfVisitor } from "../structure/Access"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { LearningRepo } from "./LearningRepo"
import { courseMessages as M } from "./messages"
import { outline } from "./outline"
import { type Detail, OutlineRepo } from "./OutlineRepo"
import { checkMove, type CourseLevel, type CourseStatus, isMove } from "./Policy"
import { type CourseChanges, CoursesRepo } from "./Repo"
import { courseView } from "./view"

/** Courses are listed in id order (UUIDv7: creation order); the cursor is the last id. */
const CourseCursor = Schema.Tuple(Uuid)

export interface NewCourseInput {
  readonly spaceId?: string | null | undefined
  readonly title: string
  readonly slug?: string | undefined
  readonly description?: string | null | undefined
  readonly level?: CourseLevel | undefined
  readonly coverUrl?: string | null | undefined
}

export interface CourseChangesInput {
  readonly title?: string | undefined
  readonly slug?: string | undefined
  readonly description?: string | null | undefined
  readonly level?: CourseLevel | undefined
  readonly status?: CourseStatus | undefined
  readonly coverUrl?: string | null | undefined
}

export interface CourseQuery extends PageQuery {
  readonly spaceId?: string | undefined
  readonly status?: CourseStatus | undefined
  readonly level?: CourseLevel | undefined
}

/** A unique violation on the slug index is a 409; any other SQL failure a defect. */
const slugConflict = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
  Effect.catchAll(
    effect,
    (error) => uniqueViolation(error) === undefined ? Effect.die(error) : Effect.fail(slugTaken())
  )

/** Courses: creation in a courses space, edits with status moves (spec §3), lists and the detail. */
export class Courses extends Effect.Service<Courses>()("@roda/core/Courses", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CoursesRepo
    const learning = yield* LearningRepo
    const webhooks = yield* WebhookEvents
    const outlines = yield* OutlineRepo
    const access = yield* Access
    const ids = yield* Ids
    const transaction = transactional(sql)

    const find = (member: Member, id: string) =>
      orNotFound(Messages.courseNotFound)(repo.find(member.communityId, id.trim().toLowerCase()))

    /** The space of a new course: given, of this community, and a courses space (all 400). */
    const courseSpace = (member: Member, spaceId: string | null | undefined) =>
      Effect.map(coursesSpaceOf(viewerOfMember(member), spaceId), (space) => space.spaceId)
    const coursesSpaceOf = access.spaceOf("courses", {
      in: "body",
      required: Messages.spaceIdRequired,
      unknown: Messages.spaceNotFound,
      otherModule: M.notACoursesSpace
    })

    const insertWithFreeSlug = (row: Parameters<typeof repo.insert>[0], generated: boolean) =>
      insertFreeSlug({
        sql,
        slug: row.slug,
        generated,
        insert: (slug) => repo.insert({ ...row, slug }),
        randomSuffix: ids.next
      })

    const create = traced("Courses.create")(function*(member: Member, input: NewCourseInput) {
      yield* requireRole(member, staffRoles)
      const spaceId = yield* courseSpace(member, input.spaceId)
      const id = yield* ids.next
      yield* insertWithFreeSlug({
        id,
        communityId: member.communityId,
        spaceId,
        title: input.title,
        slug: input.slug ?? (slugify(input.title) || "curso"),
        description: input.description ?? null,
        level: input.level ?? "beginner",
        coverUrl: input.coverUrl ?? null,
        createdBy: member.profileId
      }, input.slug === undefined)
      return courseView(yield* find(member, id))
    })

    const update = traced("Courses.update")(function*(member: Member, id: string, input: CourseChangesInput) {
      yield* requireRole(member, staffRoles)
      const found = yield* find(member, id)
      const changes: { -readonly [K in keyof CourseChanges]: CourseChanges[K] } = Object.fromEntries(
        Object.entries(input).filter(([key, value]) => value !== undefined && key !== "status")
      )
      const published = yield* transaction(Effect.gen(function*() {
        // The status and the enrollments are read under the course's row lock, which an enrollment
        // shares: nobody enrolls between the count and the move back to draft.
        if (!(yield* repo.lock(member.communityId, found.id))) {
          return yield* Effect.fail(notFound(Messages.courseNotFound))
        }
        const course = yield* find(member, found.id)
        if (isMove(course.status, input.status)) {
          const enrollments = yield* learning.enrollmentCount(member.communityId, course.id)
          yield* checkMove(course.status, input.status, { enrollments })
          changes.status = input.status
          changes.publishedAt = input.status === "published" ? new Date(yield* Clock.currentTimeMillis) : null
        }
        yield* repo.update(member.communityId, course.id, changes).pipe(slugConflict)
        if (changes.status !== "published") return undefined
        // read once: the event's course is the answer's
        const view = courseView(yield* find(member, found.id))
        yield* webhooks.emit(member.communityId, "course.published", view)
        return view
      }))
      return published ?? courseView(yield* find(member, found.id))
    })

    const remove = traced("Courses.remove")(function*(member: Member, id: string) {
      yield* requireRole(member, staffRoles)
      const course = yield* find(member, id)
      yield* repo.remove(member.communityId, course.id)
    })

    const list = traced("Courses.list")(function*(member: Member, query: CourseQuery) {
      const staff = isStaff(member.role)
      const page = yield* paginate(
        query,
        CourseCursor,
        (after, limit) =>
          Effect.gen(function*() {
            // Members see published courses only: asking for drafts finds nothing.
            if (!staff && query.status === "draft") return []
            return yield* repo.list(member.communityId, {
              limit,
              afterId: after?.[0],
              spaceId: query.spaceId?.toLowerCase(),
              level: query.level,
              status: staff ? query.status : "published",
              spaceIds: staff ? undefined : yield* access.readableSpaceIds(viewerOfMember(member))
            })
          }),
        (row) => [row.id]
      )
      return { items: page.items.map(courseView), pagination: page.pagination }
    })

    /**
     * The detail's answer from what its statement read: 404 when no course matches or a draft is
     * shown to no staff; a viewer who may not read the space is told why by `Access.readContent`
     * (404 when the space is hidden from them, else 403), a second statement on that path only.
     */
    const answer = <ViewerError>(
      found: Option.Option<Detail>,
      staff: boolean,
      viewer: Effect.Effect<Viewer, ViewerError>
    ) => {
      if (Option.isNone(found)) return Effect.fail(notFound(Messages.courseNotFound))
      const { course, outline: parts, readable } = found.value
      if (course.status !== "published" && !staff) return Effect.fail(notFound(Messages.courseNotFound))
      if (!readable || parts === undefined) {
        // Readable since the statement ran (an entitlement granted in between): its answer stands.
        return Effect.flatMap(viewer, (seen) =>
          Effect.zipRight(
            access.readContent(seen, course.spaceId),
            Effect.fail(forbidden(Messages.spaceContentForbidden))
          ))
      }
      // The outline is added to the view in place (as `outline` does for lessons): with an object
      // spread of the two, V8 moved half as much again of each detail's objects to the old generation
      // (6.1 MB a thousand requests under load, against 3.9), and so ran more mark-compacts.
      return Effect.map(
        Clock.currentTimeMillis,
        (now) =>
          Object.assign(
            courseView(course),
            outline({ modules: parts.modules, lessons: parts.lessons, learner: parts.learner, staff, now })
          )
      )
    }

    /**
     * Course detail in one statement (`OutlineRepo.detailOf`): the course with the viewer's access
     * to its space and, when they may see it, the outline with, for a member, enrollment and progress.
     */
    const detail = traced("Courses.detail")(function*(viewer: Viewer, identifier: string) {
      const staff = Option.exists(viewer.member, (member) => isStaff(member.role))
      const found = yield* outlines.detailOf(viewer.communityId, identifier, {
        readable: yield* access.readableSpaces(viewer),
        profileId: Option.getOrUndefined(Option.map(viewer.member, (member) => member.actingProfileId)),
        staff
      })
      return yield* answer(found, staff, Effect.succeed(viewer))
    })

    /**
     * `detail` for a Public route's caller (`DeferredVisitor`): where the caller is left to the
     * route's statement, the account and its membership are read in the detail's own statement
     * (`OutlineRepo.detailAs`), one round trip in all; a gone account is refused as PublicScope
     * refuses it (401).
     */
    const detailAs = traced("Courses.detail")(function*(caller: DeferredVisitor, identifier: string) {
      if (caller._tag === "Read") return yield* detail(viewerOfVisitor(caller.visitor), identifier)
      const { communityId } = caller
      const readable = yield* access.readableSpacesOf(communityId, outlines.callerColumns)
      const read = yield* outlines.detailAs(communityId, identifier, caller.caller, readable)
      if (Option.isNone(read)) return yield* caller.refuse
      return yield* answer(read.value.detail, read.value.staff, Effect.map(caller.settle, viewerOfVisitor))
    })

    return { create, update, remove, list, detail, detailAs }
  }),
  dependencies: [CoursesRepo.Default, LearningRepo.Default, OutlineRepo.Default]
}) {}
