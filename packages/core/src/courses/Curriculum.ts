import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { invalidField, notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { Messages } from "../domain/Messages"
import { requireRole } from "../domain/Policy"
import { staffRoles } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { CurriculumRepo, type LessonFields, type LessonRow } from "./CurriculumRepo"
import { LessonNotices } from "./LessonNotices"
import { courseMessages as M } from "./messages"
import { aliased, checkContent, type LessonType } from "./Policy"
import { CoursesRepo } from "./Repo"
import { lessonView, moduleView } from "./view"

/** `ids` with `id` placed at `position` (past the end: last). */
export const placeAt = (ids: ReadonlyArray<string>, id: string, position: number | undefined) => {
  const others = ids.filter((other) => other !== id)
  const at = Math.min(position ?? others.length, others.length)
  return [...others.slice(0, at), id, ...others.slice(at)]
}

export interface LessonInput {
  readonly title?: string | undefined
  readonly type?: LessonType | undefined
  readonly body?: string | null | undefined
  readonly imageUrl?: string | null | undefined
  readonly videoUrl?: string | null | undefined
  readonly url?: string | null | undefined
  /** Seconds; the spec's `duration`, `durationSeconds` being its older name. */
  readonly duration?: number | null | undefined
  readonly durationSeconds?: number | null | undefined
  readonly releaseAfterDays?: number | null | undefined
  /** 0-based place in the module; the spec's `order`, `position` being its older name. */
  readonly order?: number | undefined
  readonly position?: number | undefined
  readonly moduleId?: string | undefined
}

/** An order (`order` or its older name `position`), 400 when both are sent and disagree. */
const orderOf = (input: { readonly order?: number | undefined; readonly position?: number | undefined }) =>
  aliased("order", "position", input.order, input.position)

/** The input with `duration` / `order` folded into the stored names (400 when old and new names disagree). */
const normalized = <Input extends LessonInput>(input: Input) =>
  Effect.gen(function*() {
    const durationSeconds = yield* aliased("duration", "durationSeconds", input.duration, input.durationSeconds)
    const position = yield* orderOf(input)
    return { ...input, durationSeconds, position }
  })

const contentKeys = [
  "title",
  "type",
  "body",
  "imageUrl",
  "videoUrl",
  "url",
  "durationSeconds",
  "releaseAfterDays"
] as const

/** The lesson fields the input sets (undefined leaves a field as it is). */
const lessonChanges = (input: LessonInput): Partial<LessonFields> =>
  Object.fromEntries(contentKeys.flatMap((key) => input[key] === undefined ? [] : [[key, input[key]]]))

/**
 * The outline of a course: modules and lessons, their order (positions 0..n-1 per parent, kept
 * dense) and moves. Changes to one course's outline are serialised by locking the course row.
 */
export class Curriculum extends Effect.Service<Curriculum>()("@roda/core/Curriculum", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CurriculumRepo
    const courses = yield* CoursesRepo
    const ids = yield* Ids
    const lessonNotices = yield* LessonNotices
    const transaction = transactional(sql)

    /** Locks the course: its status. */
    const lockCourse = (member: Member, courseId: string) =>
      Effect.flatMap(
        courses.lockStatus(member.communityId, courseId),
        Option.match({ onNone: () => Effect.fail(notFound(Messages.courseNotFound)), onSome: Effect.succeed })
      )
    const findModule = (member: Member, id: string) =>
      orNotFound(M.moduleNotFound)(repo.findModule(member.communityId, id.toLowerCase()))
    const findLesson = (member: Member, id: string) =>
      orNotFound(M.lessonNotFound)(repo.findLesson(member.communityId, id.toLowerCase()))
    const moduleIdsOf = (member: Member, courseId: string) =>
      Effect.map(repo.modulesOf(member.communityId, courseId), (rows) => rows.map((row) => row.id))

    const createModule = traced("Curriculum.createModule")(function*(
      member: Member,
      input: { courseId: string; title: string; order?: number | undefined; position?: number | undefined }
    ) {
      yield* requireRole(member, staffRoles)
      const position = yield* orderOf(input)
      const courseId = input.courseId.trim().toLowerCase()
      const id = yield* ids.next
      yield* transaction(Effect.gen(function*() {
        yield* lockCourse(member, courseId)
        const siblings = yield* moduleIdsOf(member, courseId)
        yield* repo.insertModule({
          id,
          communityId: member.communityId,
          courseId,
          title: input.title,
          position: siblings.length
        })
        if (position !== undefined && position < siblings.length) {
          yield* repo.renumberModules(member.communityId, placeAt(siblings, id, position))
        }
      }))
      return moduleView(yield* findModule(member, id))
    })

    const updateModule = traced("Curriculum.updateModule")(function*(
      member: Member,
      id: string,
      input: { title?: string | undefined; order?: number | undefined; position?: number | undefined }
    ) {
      yield* requireRole(member, staffRoles)
      const position = yield* orderOf(input)
      const found = yield* findModule(member, id)
      yield* transaction(Effect.gen(function*() {
        yield* lockCourse(member, found.courseId)
        // Read again under the lock: a concurrent removal would leave its place as a gap in the orders.
        const module = yield* findModule(member, found.id)
        if (input.title !== undefined) yield* repo.renameModule(member.communityId, module.id, input.title)
        if (position !== undefined) {
          // Read under the course lock: concurrent reorders of the course queue behind it.
          const siblings = yield* moduleIdsOf(member, module.courseId)
          yield* repo.renumberModules(member.communityId, placeAt(siblings, module.id, position))
        }
      }))
      return moduleView(yield* findModule(member, found.id))
    })

    const removeModule = traced("Curriculum.removeModule")(function*(member: Member, id: string) {
      yield* requireRole(member, staffRoles)
      const module = yield* findModule(member, id)
      yield* transaction(Effect.gen(function*() {
        yield* lockCourse(member, module.courseId)
        yield* repo.removeModule(member.communityId, module.id)
        yield* repo.renumberModules(member.communityId, yield* moduleIdsOf(member, module.courseId))
      }))
    })

    const createLesson = traced("Curriculum.createLesson")(function*(
      member: Member,
      raw: LessonInput & { moduleId: string; title: string; type: LessonType }
    ) {
      yield* requireRole(member, staffRoles)
      const input = yield* normalized(raw)
      const module = yield* findModule(member, raw.moduleId)
      const id = yield* ids.next
      const lesson: LessonFields = {
        id,
        communityId: member.communityId,
        courseId: module.courseId,
        moduleId: module.id,
        title: input.title,
        type: input.type,
        body: input.body ?? null,
        imageUrl: input.imageUrl ?? null,
        videoUrl: input.videoUrl ?? null,
        url: input.url ?? null,
        durationSeconds: input.durationSeconds ?? null,
        releaseAfterDays: input.releaseAfterDays ?? null,
        position: 0
      }
      yield* checkContent(lesson)
      yield* transaction(Effect.gen(function*() {
        const status = yield* lockCourse(member, module.courseId)
        // The module may have been removed while we waited for the lock (404, not a foreign-key failure).
        yield* findModule(member, module.id)
        const siblings = yield* repo.lessonIdsOfModule(member.communityId, module.id)
        yield* repo.insertLesson({ ...lesson, position: siblings.length })
        if (input.position !== undefined && input.position < siblings.length) {
          yield* repo.renumberLessons(member.communityId, placeAt(siblings, id, input.position))
        }
        if (status === "published") yield* lessonNotices.added(member.communityId, module.courseId, id)
      }))
      return lessonView(yield* findLesson(member, id))
    })

    /** Where an edited lesson goes: its own module, or another module of the same course (400 otherwise). */
    const targetModule = (member: Member, lesson: LessonRow, moduleId: string | undefined) =>
      Effect.gen(function*() {
        if (moduleId === undefined || moduleId.toLowerCase() === lesson.moduleId) return lesson.moduleId
        const module = yield* findModule(member, moduleId)
        if (module.courseId !== lesson.courseId) {
          return yield* Effect.fail(invalidField("moduleId", M.lessonOtherCourse))
        }
        return module.id
      })

    const updateLesson = traced("Curriculum.updateLesson")(function*(
      member: Member,
      id: string,
      raw: LessonInput
    ) {
      yield* requireRole(member, staffRoles)
      const input = yield* normalized(raw)
      const found = yield* findLesson(member, id)
      yield* transaction(Effect.gen(function*() {
        // A lesson never leaves its course, so this lock covers it; its module and place are read again
        // under the lock, as a concurrent edit may just have moved it.
        yield* lockCourse(member, found.courseId)
        const lesson = yield* findLesson(member, found.id)
        const moduleId = yield* targetModule(member, lesson, input.moduleId)
        const changes = lessonChanges(input)
        yield* checkContent({ ...lesson, ...changes })
        const moved = moduleId !== lesson.moduleId
        if (moved) {
          // Past the end of its new module until renumbered below.
          yield* repo.updateLesson(member.communityId, lesson.id, { ...changes, moduleId, position: 100_000 })
          const left = yield* repo.lessonIdsOfModule(member.communityId, lesson.moduleId)
          yield* repo.renumberLessons(member.communityId, left)
        } else {
          yield* repo.updateLesson(member.communityId, lesson.id, changes)
        }
        if (moved || input.position !== undefined) {
          const siblings = yield* repo.lessonIdsOfModule(member.communityId, moduleId)
          yield* repo.renumberLessons(member.communityId, placeAt(siblings, lesson.id, input.position))
        }
      }))
      return lessonView(yield* findLesson(member, found.id))
    })

    const removeLesson = traced("Curriculum.removeLesson")(function*(member: Member, id: string) {
      yield* requireRole(member, staffRoles)
      const found = yield* findLesson(member, id)
      yield* transaction(Effect.gen(function*() {
        yield* lockCourse(member, found.courseId)
        // Its module is read under the lock: a concurrent edit may just have moved it.
        const lesson = yield* findLesson(member, found.id)
        yield* repo.removeLesson(member.communityId, lesson.id)
        yield* repo.renumberLessons(
          member.communityId,
          yield* repo.lessonIdsOfModule(member.communityId, lesson.moduleId)
        )
      }))
    })

    return { createModule, updateModule, removeModule, createLesson, updateLesson, removeLesson }
  }),
  dependencies: [CurriculumRepo.Default, CoursesRepo.Default, LessonNotices.Default]
}) {}
