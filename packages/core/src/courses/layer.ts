import { Layer } from "effect"
import { feature } from "../http/Feature"
import { Courses } from "./Courses"
import { Curriculum } from "./Curriculum"
import { CoursesHttp } from "./Http"
import { Learning } from "./Learning"

export const coursesFeature = feature(
  Layer.mergeAll(Courses.Default, Curriculum.Default, Learning.Default),
  CoursesHttp
)
