import { expect, it } from "vitest"
import { as } from "../support/community"
import { courseCommunity, publishedCourse } from "../support/courses"
import { verifiedEvents, webhookSuite } from "./receiver"

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
  const document = (await api.get("/api/openapi.json")).body
  for (const event of delivered) {
    const data = document.webhooks[event.type].post.requestBody.content["application/json"].schema.properties.data
    for (const key of Object.keys(event.data)) expect(Object.keys(data.properties), key).toContain(key)
  }
  await new Promise((resolve) => setTimeout(resolve, 300))
  expect(running().received.filter((r) => r.path === "/learning")).toHaveLength(2)
})
