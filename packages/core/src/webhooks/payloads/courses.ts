import { Course, Enrollment } from "../../courses/Api"
import { type Payloads, withCommunity } from "./payload"

export const coursePayloads: Payloads = {
  "course.published": {
    summary: "A course was published (the course as its detail route answers staff)",
    data: withCommunity(Course.fields)
  },
  "enrollment.created": {
    summary: "A member enrolled in a course (the enrollment)",
    data: withCommunity(Enrollment.fields)
  }
}
