import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentDeferredVisitor, CurrentMember } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { plainJson } from "../http/engine/PlainJson"
import { ok, page } from "../http/Reply"
import { CourseAnswer } from "./Api"
import { Courses } from "./Courses"
import { Curriculum } from "./Curriculum"
import { Learning } from "./Learning"
import { courseMessages as M } from "./messages"

const courseAnswer = plainJson(CourseAnswer)

export const CoursesHttp = apiGroup(RodaApi, "courses", (handlers) =>
  Effect.gen(function*() {
    const courses = yield* Courses
    const curriculum = yield* Curriculum
    const learning = yield* Learning
    return handlers
      .handle("list", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => courses.list(member, urlParams)),
          Effect.flatMap((result) => page(M.courses, result))
        ))
      .handle("create", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => courses.create(member, payload)),
          Effect.flatMap((data) => ok(M.courseCreated, data))
        ))
      .handle("detail", ({ path }) =>
        CurrentDeferredVisitor.pipe(
          Effect.flatMap((caller) => courses.detailAs(caller, path.id)),
          Effect.flatMap((data) => ok(M.course, data)),
          courseAnswer
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => courses.update(member, path.id, payload)),
          Effect.flatMap((data) => ok(M.courseUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => courses.remove(member, path.id)),
          Effect.zipRight(ok(M.courseDeleted, null))
        ))
      .handle("createModule", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => curriculum.createModule(member, payload)),
          Effect.flatMap((data) => ok(M.moduleCreated, data))
        ))
      .handle("updateModule", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => curriculum.updateModule(member, path.moduleId, payload)),
          Effect.flatMap((data) => ok(M.moduleUpdated, data))
        ))
      .handle("removeModule", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => curriculum.removeModule(member, path.moduleId)),
          Effect.zipRight(ok(M.moduleDeleted, null))
        ))
      .handle("createLesson", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => curriculum.createLesson(member, payload)),
          Effect.flatMap((data) => ok(M.lessonCreated, data))
        ))
      .handle("updateLesson", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => curriculum.updateLesson(member, path.lessonId, payload)),
          Effect.flatMap((data) => ok(M.lessonUpdated, data))
        ))
      .handle("removeLesson", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => curriculum.removeLesson(member, path.lessonId)),
          Effect.zipRight(ok(M.lessonDeleted, null))
        ))
      .handle("enroll", ({ path }) =>
        Effect.gen(function*() {
          const data = yield* learning.enroll(yield* CurrentMember, path.courseId)
          // 201 for a new enrollment, 200 for the existing one (the schema tells them apart).
          return data.alreadyEnrolled ? yield* ok(M.alreadyEnrolled, data) : yield* ok(M.enrolled, data)
        }))
      .handle("progress", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => learning.progress(member, path.courseId, path.lessonId, payload)),
          Effect.flatMap((data) => ok(M.progressRecorded, data))
        ))
  }))
