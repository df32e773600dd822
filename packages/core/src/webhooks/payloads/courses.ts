import { Schema } from "effect"
import { Course, Enrollment, ProgressResult } from "../../courses/Api"
import { type Payloads, withCommunity } from "./payload"

export const coursePayloads: Payloads = {
  "course.published": {
    summary: "A course was published (the course as its detail route answers staff)",
    data: withCommunity(Course.fields)
  },
  "enrollment.created": {
    summary: "A member enrolled in a course (the enrollment)",
    data: withCommunity(Enrollment.fields)
  },
  "lesson.completed": {
    summary: "A learner completed a lesson (the progress as the progress route answers it)",
    data: withCommunity(ProgressResult.fields)
  },
  "course.completed": {
    summary: "A learner completed the last lesson of a course (the enrollment, and `completedAt`)",
    data: withCommunity({ ...Enrollment.fields, completedAt: Schema.String })
  }
}
