import { Courses, Events, Learning, viewerOfMember } from "@roda/core"
import { Effect } from "effect"
import { adds, reads, routeTool, sets, type ToolSpec } from "../tool"

export const learningTools: ReadonlyArray<ToolSpec> = [
  routeTool("courses", "list", {
    name: "list_courses",
    title: "List courses",
    description: "The community's courses you can see, with your enrollment and progress. Paginated with `cursor`.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Courses, (c) => c.list(member, urlParams))
  }),
  routeTool("courses", "detail", {
    name: "course_outline",
    title: "Course outline",
    description: "One course (`id`: its id or slug) with its modules and lessons in order.",
    hints: reads,
    run: ({ path }, member) => Effect.flatMap(Courses, (c) => c.detail(viewerOfMember(member), path.id))
  }),
  routeTool("courses", "enroll", {
    name: "enroll_in_course",
    title: "Enroll in a course",
    description: "Enrolls you in the course `courseId` (free courses, or ones your access includes).",
    hints: sets,
    run: ({ path }, member) => Effect.flatMap(Learning, (l) => l.enroll(member, path.courseId))
  }),
  routeTool("courses", "progress", {
    name: "record_lesson_progress",
    title: "Record lesson progress",
    description:
      "Records your progress in lesson `lessonId` of course `courseId`: `completed`, `percent` (0-100) and/or `lastPositionSeconds`.",
    hints: sets,
    run: ({ path, payload }, member) =>
      Effect.flatMap(Learning, (l) => l.progress(member, path.courseId, path.lessonId, payload))
  }),
  routeTool("events", "list", {
    name: "list_events",
    title: "List events",
    description:
      "The community's events you can see (upcoming by default; see the query fields). Paginated with `cursor`.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Events, (e) => e.list(viewerOfMember(member), urlParams))
  }),
  routeTool("events", "participate", {
    name: "participate_in_event",
    title: "Participate in an event",
    description: "Registers you for the event `id` (or puts you on its waiting list when full).",
    hints: adds,
    run: ({ path }, member) => Effect.flatMap(Events, (e) => e.participate(member, path.id))
  }),
  routeTool("events", "participants", {
    name: "list_event_participants",
    title: "List an event's participants",
    description: "Who takes part in the event `id`, with counts. Paginated with `cursor`.",
    hints: reads,
    run: ({ path, urlParams }, member) =>
      Effect.flatMap(Events, (e) => e.participants(viewerOfMember(member), path.id, urlParams))
  })
]
