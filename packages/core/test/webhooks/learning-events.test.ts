import { expect, it } from "vitest"
import { as } from "../support/community"
import { courseCommunity, publishedCourse } from "../support/courses"
import { expectOk } from "../support/envelope"
import { expectDeclared, expectNoMore, verifiedEvents, webhookSuite } from "./receiver"

/** Issue 54, item 3: a course's publication and an enrollment reach the community's webhooks. */
const { api, receiver: running } = webhookSuite()

it("sends course.published and enrollment.created, each with its resource; enrolling again sends nothing", async () => {
  const setup = await courseCommunity(api, "Cursos com ganchos")
  const owner = as(setup.owner, setup.community)
  const hook = (await api.post("/api/webhooks", {
    url: running().url("/learning"),
    events: ["course.published", "enrollment.created"]
  }, owner)).body.data
  const course = await publishedCourse(api, setup, { modules: 1, lessons: 1 })
  const learner = await setup.addMember("member", "Lia Learner")
  const enrolled = await api.post(`/api/courses/${course.id}/enroll`, undefined, as(learner, setup.community))
  expect(enrolled.status).toBe(201)
  const again = await api.post(`/api/courses/${course.id}/enroll`, undefined, as(learner, setup.community))
  expect(again.status).toBe(200)

  const requests = await running().waitFor("/learning", 2)
  const delivered = verifiedEvents(hook.secret, requests)
  expect(delivered.map((e) => e.type)).toEqual(["course.published", "enrollment.created"])
  expect(delivered[0].data).toMatchObject({ id: course.id, status: "published", communityId: setup.community.id })
  const { alreadyEnrolled: _, ...enrollment } = enrolled.body.data
  expect(delivered[1].data).toEqual({ ...enrollment, communityId: setup.community.id })
  await expectDeclared(api, delivered)
  await expectNoMore(running(), "/learning", 2)
})

it("sends lesson.completed and, for the last lesson, course.completed once; completing again sends nothing", async () => {
  const setup = await courseCommunity(api, "Conclusões com ganchos")
  const owner = as(setup.owner, setup.community)
  const hook = (await api.post("/api/webhooks", {
    url: running().url("/completions"),
    events: ["lesson.completed", "course.completed"]
  }, owner)).body.data
  const course = await publishedCourse(api, setup, { modules: 1, lessons: 2 })
  const [first, last] = course.modules[0]!.lessons
  const learner = as(await setup.addMember("member", "Clara Concluinte"), setup.community)
  const { alreadyEnrolled: _, ...enrollment } = expectOk(
    await api.post(`/api/courses/${course.id}/enroll`, undefined, learner),
    201
  )
  const progress = (lessonId: string, body: Record<string, unknown>) =>
    api.post(`/api/courses/${course.id}/lesson/${lessonId}/progress`, body, learner).then((r) => expectOk(r))
  await progress(first!.id, { percent: 40 })
  const lesson = await progress(first!.id, { completed: true })
  await progress(first!.id, { completed: true })
  await progress(first!.id, { lastPositionSeconds: 30 })
  const closing = await progress(last!.id, { completed: true })
  expect(closing.course).toEqual({ completedLessons: 2, totalLessons: 2, percent: 100 })
  await progress(last!.id, { completed: true, percent: 100 })

  const delivered = verifiedEvents(hook.secret, await running().waitFor("/completions", 3))
  const lessons = delivered.filter((e) => e.type === "lesson.completed")
  expect(lessons.map((e) => e.data)).toEqual([
    { ...lesson, communityId: setup.community.id },
    { ...closing, communityId: setup.community.id }
  ])
  expect(lessons[0].data).toMatchObject({ lessonId: first!.id, courseId: course.id, profileId: enrollment.profileId })
  const completed = delivered.filter((e) => e.type === "course.completed")
  expect(completed.map((e) => e.data)).toEqual([
    { ...enrollment, completedAt: closing.completedAt, communityId: setup.community.id }
  ])
  // The enrollment as the course's detail route answers the learner.
  expect(expectOk(await api.get(`/api/courses/${course.id}`, learner)).enrollment).toEqual(enrollment)
  await expectDeclared(api, delivered)
  await expectNoMore(running(), "/completions", 3)
})
