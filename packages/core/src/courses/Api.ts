import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound, RateLimited, Unauthenticated } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, Name } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { DeferredPublicScope, MemberScope } from "../http/Security"
import {
  Course,
  CourseAnswer,
  CourseChanges,
  CourseId,
  CourseIdParam,
  CourseModule,
  CourseQuery,
  Enrollment,
  Lesson,
  LessonChanges,
  LessonIdParam,
  ModuleIdParam,
  NewCourse,
  NewLesson,
  Position,
  ProgressInput,
  ProgressResult
} from "./schemas"

/** What a course and an enrollment are, for the payloads of their webhooks. */
export { Course, Enrollment }

export * from "./schemas"

export class CoursesApi extends HttpApiGroup.make("courses")
  .annotateContext(OpenApi.annotations({
    title: "Courses",
    description: "Courses with modules and lessons, enrollment, learner progress and drip release."
  }))
  .add(
    HttpApiEndpoint.get("list", "/courses")
      .setUrlParams(CourseQuery)
      .addSuccess(Page(Course))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        "Courses of the community, oldest first (keyset: `limit`, `cursor`), filtered by `spaceId`, `status`, `level`. Staff (owner, admin, moderator) see every course, drafts included; other members see only published courses of spaces whose content they may read."
      )
      .annotate(OpenApi.Summary, "List courses")
  )
  .add(
    HttpApiEndpoint.post("create", "/courses")
      .setPayload(NewCourse)
      .addSuccess(Ok(Course), { status: 201 })
      .addError(declared(InvalidInput, "not_a_courses_space", "space_id_required", "space_not_found"))
      .addError(declared(Forbidden, "role_required", "space_content_forbidden"))
      .addError(declared(NotFound, "course_not_found"))
      .addError(declared(Conflict, "slug_taken"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. `spaceId` is required (400 `ID do espaço é obrigatório.`) and must name a space of this community whose module is `courses` (400 otherwise). `communityId`, when sent, must equal X-CommunityId. The course starts as `draft`. `slug` is generated from the title when absent (accents removed; `-2`, `-3`… when taken); an explicit slug already used in the community answers 409. `level` defaults to `beginner`."
      )
      .annotate(OpenApi.Summary, "Create a course")
  )
  .add(
    HttpApiEndpoint.put("update", "/courses/:id")
      .setPath(CourseIdParam)
      .setPayload(CourseChanges)
      .addSuccess(Ok(Course))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "course_not_found"))
      .addError(declared(Conflict, "course_status_move", "slug_taken"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Partial update of title, slug, description, level, coverUrl and status. Status moves: `draft -> published` (opens enrollments; spec §3); `published -> draft` only while nobody is enrolled. Any other move answers 409 with `errors[0].param = \"status\"` and the allowed moves."
      )
      .annotate(OpenApi.Summary, "Update a course")
  )
  .add(
    HttpApiEndpoint.del("remove", "/courses/:id")
      .setPath(CourseIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "course_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Removes the course with its modules, lessons and enrollments; learners' lesson progress rows are kept."
      )
      .annotate(OpenApi.Summary, "Delete a course")
  )
  .add(
    HttpApiEndpoint.post("createModule", "/courses/module")
      .setPayload(Body({
        courseId: CourseId,
        title: Name(200),
        order: Schema.optional(Position),
        position: Schema.optional(Position)
      }))
      .addSuccess(Ok(CourseModule), { status: 201 })
      .addError(declared(InvalidInput, "field_alias_disagrees"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "course_not_found", "module_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Unknown course: 404 `Curso não encontrado.`. Positions start at 0; the module goes last unless `order` (or its older name `position`; both sent must agree, 400 otherwise) is given (the others shift). The answer carries both `order` and `position` (same value)."
      )
      .annotate(OpenApi.Summary, "Create a course module")
  )
  .add(
    HttpApiEndpoint.put("updateModule", "/courses/module/:moduleId")
      .setPath(ModuleIdParam)
      .setPayload(Body({
        title: Schema.optional(Name(200)),
        order: Schema.optional(Position),
        position: Schema.optional(Position)
      }))
      .addSuccess(Ok(CourseModule))
      .addError(declared(InvalidInput, "field_alias_disagrees"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "course_not_found", "module_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Renames (`title`) and/or reorders the module: `order` (the spec's name; `position` is accepted as an older alias, both sent must agree, 400 param `order` otherwise) is its 0-based place among the course's modules, a value past the end means last; the other modules shift so orders stay 0..n-1. Reorders of one course are serialised (the course row is locked), so concurrent edits never leave gaps or duplicates. Any other field answers 400."
      )
      .annotate(OpenApi.Summary, "Update a course module")
  )
  .add(
    HttpApiEndpoint.del("removeModule", "/courses/module/:moduleId")
      .setPath(ModuleIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "course_not_found", "module_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Removes the module with its lessons; progress rows are kept."
      )
      .annotate(OpenApi.Summary, "Delete a course module")
  )
  .add(
    HttpApiEndpoint.post("createLesson", "/courses/lesson")
      .setPayload(NewLesson)
      .addSuccess(Ok(Lesson), { status: 201 })
      .addError(declared(InvalidInput, "field_alias_disagrees", "lesson_content_blank"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "course_not_found", "lesson_not_found", "module_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Unknown module: 404 `Module not found`. Only `moduleId`, `title` and `type` are required (spec §2): the content field of the type (text -> `body`, image -> `imageUrl`, video -> `videoUrl`, link -> `url`) may come later with an edit. A lesson without its content is listed like any other (it counts in the course's lessons and may be marked completed) with that field `null` and `hasContent: false`; a content field sent blank answers 400. `duration` is in seconds (`durationSeconds` is the older name of the same field). `releaseAfterDays` (drip) opens the lesson that many days after each learner's enrollment. Goes last in its module unless `order` (or `position`) is given."
      )
      .annotate(OpenApi.Summary, "Create a lesson")
  )
  .add(
    HttpApiEndpoint.put("updateLesson", "/courses/lesson/:lessonId")
      .setPath(LessonIdParam)
      .setPayload(LessonChanges)
      .addSuccess(Ok(Lesson))
      .addError(declared(InvalidInput, "field_alias_disagrees", "lesson_content_blank", "lesson_other_course"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "course_not_found", "lesson_not_found", "module_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Partial edit of the spec's `title`, `type`, `duration`, `order` and `moduleId`, and of the content fields and `releaseAfterDays`; any other field answers 400. `duration` is in seconds (null clears it; `durationSeconds` is accepted as its older name). `order` is the 0-based place in the lesson's module (after a move: in the new module; past the end means last); the module's other lessons shift so orders stay 0..n-1 (`position` is its older name; old and new names sent together must agree, 400 param `duration` / `order` otherwise). `moduleId` moves the lesson to another module of the same course only (400 otherwise). Edits of one course's outline are serialised (the course row is locked and the lesson re-read under the lock), so concurrent reorders and moves never leave gaps or duplicates. A content field may be null (content comes later, `hasContent: false`), never blank."
      )
      .annotate(OpenApi.Summary, "Update a lesson")
  )
  .add(
    HttpApiEndpoint.del("removeLesson", "/courses/lesson/:lessonId")
      .setPath(LessonIdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "course_not_found", "lesson_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Description, "Owner, admin or moderator. Learners' progress on the lesson is kept.")
      .annotate(OpenApi.Summary, "Delete a lesson")
  )
  .add(
    HttpApiEndpoint.post("enroll", "/courses/:courseId/enroll")
      .setPath(Schema.Struct({ courseId: CourseId }))
      .addSuccess(Ok(Schema.Struct({ ...Enrollment.fields, alreadyEnrolled: Schema.Literal(false) })), { status: 201 })
      .addSuccess(Ok(Schema.Struct({ ...Enrollment.fields, alreadyEnrolled: Schema.Literal(true) })))
      .addError(declared(Forbidden, "space_content_forbidden"))
      .addError(declared(NotFound, "course_not_found", "space_unknown"))
      .addError(declared(Conflict, "course_not_published"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Enrolls the caller (the X-ProfileId profile when acting). Only a published course (409 otherwise), and only with access to the content of the course's space (403). Idempotent: the first call answers 201, a second one 200 with the same enrollment (`alreadyEnrolled: true`). An enrollment and a move of the course back to draft (or its removal) fired together are serialised: a draft never keeps learners, and a course removed meanwhile answers 404."
      )
      .annotate(OpenApi.Summary, "Enroll in a course")
  )
  .add(
    HttpApiEndpoint.post("progress", "/courses/:courseId/lesson/:lessonId/progress")
      .setPath(Schema.Struct({ courseId: CourseId, lessonId: Uuid }))
      .setPayload(ProgressInput)
      .addSuccess(Ok(ProgressResult))
      .addError(declared(InvalidInput, "progress_empty"))
      .addError(declared(Forbidden, "space_content_forbidden"))
      .addError(declared(NotFound, "course_not_found", "lesson_not_found", "space_unknown"))
      .addError(declared(Conflict, "enrollment_required", "lesson_locked"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Records the caller's progress on a lesson: fields sent change, others keep their value; `completed: true` without `percent` sets 100. A lesson not in that course: 404. Requires an enrollment (409 `Inscreva-se no curso…`; enrollment is never implicit, so drip dates start when the learner enrolls). A lesson still locked by drip answers 409 with its release date. Answers the lesson's progress and the course completion (completed lessons / lessons, rounded down). A learner's progress calls on one course are recorded one at a time, so lessons completed together still complete the course."
      )
      .annotate(OpenApi.Summary, "Record lesson progress")
  )
  .middlewareEndpoints(MemberScope)
  .add(
    HttpApiEndpoint.get("detail", "/courses/:id")
      .setPath(Schema.Struct({
        id: Schema.String.pipe(
          Schema.minLength(1),
          Schema.maxLength(200),
          Schema.annotations({ description: "The course's id or its slug." })
        )
      }))
      .addSuccess(CourseAnswer)
      .addError(declared(InvalidInput, "community_header_missing", "community_mismatch", "invalid_input"))
      .addError(declared(Unauthenticated, "token_invalid"))
      .addError(
        declared(
          Forbidden,
          "acting_profile_forbidden",
          "api_key_other_community",
          "api_key_route_refused",
          "api_key_scope_missing",
          "space_content_forbidden"
        )
      )
      .addError(declared(NotFound, "acting_profile_not_found", "course_not_found", "space_unknown"))
      .addError(declared(RateLimited, "rate_limited"))
      .addError(ParametersRefused)
      .middleware(DeferredPublicScope)
      .annotate(
        OpenApi.Description,
        "Public (token optional). By id or slug. Modules and lessons in order. Drafts are not found (404) except for staff; reading the content of the course's space is decided by the space's access rules (403 or 404). For a member: `enrollment`, per-lesson `progress` and `completion` (completed lessons / lessons, rounded down). Drip: a lesson whose `releaseAfterDays` have not passed since enrollment (or that has a delay and the viewer is not enrolled) is `locked: true` with its content fields null; `availableAt` tells when it opens. Staff see every lesson unlocked."
      )
      .annotate(OpenApi.Summary, "Get a course by id or slug")
  )
  .prefix("/api")
{}
