import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { activeTemplate, type CertificateCommunity, certificateCommunity } from "./support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CertificateCommunity
let course: { id: string; lessons: Array<string> }
beforeAll(async () => {
  setup = await certificateCommunity(api, "Automático")
  const created = expectOk(
    await api.post("/api/courses", { spaceId: setup.space.id, title: "Torno" }, setup.owner()),
    201
  )
  const module = expectOk(
    await api.post("/api/courses/module", { courseId: created.id, title: "M" }, setup.owner()),
    201
  )
  const lessons: Array<string> = []
  for (const title of ["A1", "A2"]) {
    const lesson = expectOk(
      await api.post("/api/courses/lesson", { moduleId: module.id, title, type: "text", body: "x" }, setup.owner()),
      201
    )
    lessons.push(lesson.id)
  }
  expectOk(await api.put(`/api/courses/${created.id}`, { status: "published" }, setup.owner()))
  course = { id: created.id, lessons }
})

const complete = async (user: { token: string }, lessonId: string) =>
  expectOk(
    await api.post(
      `/api/courses/${course.id}/lesson/${lessonId}/progress`,
      { completed: true },
      as(user, setup.community)
    )
  )

const certificatesOf = async (profileId: string) =>
  expectOk(await api.get(`/api/certificates?profileId=${profileId}`, setup.owner())) as Array<any>

const eventually = async <A>(read: () => Promise<A>, done: (value: A) => boolean) => {
  for (let i = 0; i < 600; i++) {
    const value = await read()
    if (done(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return read()
}

describe("automatic issuing on course completion", () => {
  it("issues when the space rule says so, once all lessons are completed, and only once", async () => {
    const template = await activeTemplate(api, setup, { name: "Automático" })
    expectOk(
      await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "course_completion" }, setup.owner())
    )
    expectOk(await api.post(`/api/courses/${course.id}/enroll`, undefined, as(setup.ana, setup.community)), 201)
    await complete(setup.ana, course.lessons[0]!)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await certificatesOf(setup.ana.profileId)).toHaveLength(0)
    await complete(setup.ana, course.lessons[1]!)
    const issued = await eventually(
      () => certificatesOf(setup.ana.profileId),
      (list) => list.length === 1 && list[0].status === "issued"
    )
    expect(issued).toHaveLength(1)
    expect(issued[0]).toMatchObject({ templateId: template.id, status: "issued", recipientName: "Ana Aprendiz" })
    const batch = expectOk(await api.get(`/api/certificates/batches/${issued[0].batchId}`, setup.owner()))
    expect(batch).toMatchObject({ source: "course_completion", total: 1, issued: 1, status: "completed" })
    // completing a lesson again does not issue a second certificate
    await complete(setup.ana, course.lessons[1]!)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await certificatesOf(setup.ana.profileId)).toHaveLength(1)
    const mails = (await outboxFor(roda, setup.ana.email)).filter((mail) => mail.kind === "certificate-issued")
    expect(mails).toHaveLength(1)
  })

  it("does not issue when the rule is staff", async () => {
    expectOk(await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "staff" }, setup.owner()))
    expectOk(await api.post(`/api/courses/${course.id}/enroll`, undefined, as(setup.bruno, setup.community)), 201)
    for (const lesson of course.lessons) await complete(setup.bruno, lesson)
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await certificatesOf(setup.bruno.profileId)).toHaveLength(0)
  })
})
