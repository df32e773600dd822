import { expect, it } from "vitest"
import { activeTemplate, type CertificateCommunity, certificateCommunity, issueAndWait } from "../certificates/support"
import { as } from "../support/community"
import { publishedCourse } from "../support/courses"
import { expectError, expectOk } from "../support/envelope"
import { query } from "../support/sql"
import { expectDeclared, verifiedEvents, webhookSuite } from "./receiver"

/** Issue 54, item 3: every issuing of a certificate, and its revocation, reach the community's webhooks. */
const { roda, api, receiver: running } = webhookSuite()

const hookFor = async (setup: CertificateCommunity, path: string) =>
  expectOk(
    await api.post("/api/webhooks", {
      url: running().url(path),
      events: ["certificate.issued", "certificate.revoked"]
    }, setup.owner()),
    201
  )

/** The certificate as its detail route answers staff, once `done` holds. */
const detailOnce = async (setup: CertificateCommunity, id: string, done: (certificate: any) => boolean) => {
  for (let i = 0; i < 600; i++) {
    const certificate = expectOk(await api.get(`/api/certificates/${id}`, setup.owner()))
    if (done(certificate)) return certificate
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`certificate ${id} never reached the expected state`)
}

const issued = (certificate: any) => certificate.status === "issued"

it("sends certificate.issued once per issuing (staff, course completion, reissue) and certificate.revoked", async () => {
  const setup = await certificateCommunity(api, "Certificados com ganchos")
  const communityId = setup.community.id
  const hook = await hookFor(setup, "/certificates")
  const template = await activeTemplate(api, setup)

  // by staff
  const { certificates } = await issueAndWait(api, setup, template.id, [setup.ana.profileId])
  const byStaff = await detailOnce(setup, certificates[0].id, issued)

  // automatically, when Bruno completes the space's course
  expectOk(await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "course_completion" }, setup.owner()))
  const course = await publishedCourse(api, { ...setup, owner: setup.ownerUser }, { modules: 1, lessons: 1 })
  const bruno = as(setup.bruno, setup.community)
  expectOk(await api.post(`/api/courses/${course.id}/enroll`, undefined, bruno), 201)
  const lesson = `/api/courses/${course.id}/lesson/${course.modules[0]!.lessons[0]!.id}/progress`
  expectOk(await api.post(lesson, { completed: true }, bruno))
  let automatic: any
  for (let i = 0; i < 600 && automatic === undefined; i++) {
    const list = expectOk(await api.get(`/api/certificates?profileId=${setup.bruno.profileId}`, setup.owner()))
    automatic = (list as Array<any>).find(issued)
    if (automatic === undefined) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  expect(automatic).toBeDefined()
  const byCompletion = expectOk(await api.get(`/api/certificates/${automatic.id}`, setup.owner()))

  // revoked; revoking again is refused and sends nothing
  const revoked = expectOk(
    await api.post(`/api/certificates/${byStaff.id}/revoke`, { reason: "Emitido por engano" }, setup.owner())
  )
  expect(revoked).toMatchObject({ status: "revoked", revokeReason: "Emitido por engano" })
  expect(expectOk(await api.get(`/api/certificates/${byStaff.id}`, setup.owner()))).toEqual(revoked)
  expectError(await api.post(`/api/certificates/${byStaff.id}/revoke`, { reason: "De novo" }, setup.owner()), 409)

  // reissued: the new certificate is issued, the superseded one sends nothing
  const fresh = expectOk(await api.post(`/api/certificates/${byCompletion.id}/reissue`, undefined, setup.owner()), 201)
  const reissued = await detailOnce(setup, fresh.id, issued)

  // completing the lesson again issues nothing more
  expectOk(await api.post(lesson, { completed: true }, bruno))

  const requests = await running().waitFor("/certificates", 4)
  await new Promise((resolve) => setTimeout(resolve, 1500))
  expect(running().received.filter((r) => r.path === "/certificates")).toHaveLength(4)
  const delivered = verifiedEvents(hook.secret, requests)
  const of = (type: string, id: string) => delivered.filter((e) => e.type === type && e.data.id === id)
  expect(of("certificate.issued", byStaff.id).map((e) => e.data)).toEqual([{ ...byStaff, communityId }])
  expect(of("certificate.issued", byCompletion.id).map((e) => e.data)).toEqual([{ ...byCompletion, communityId }])
  expect(of("certificate.issued", reissued.id).map((e) => e.data)).toEqual([{ ...reissued, communityId }])
  expect(reissued).toMatchObject({ supersedesId: byCompletion.id, status: "issued" })
  expect(of("certificate.revoked", byStaff.id).map((e) => e.data)).toEqual([{ ...revoked, communityId }])
  await expectDeclared(api, delivered)
})

it("a failed generation sends nothing; the retry that issues it sends certificate.issued once", async () => {
  const setup = await certificateCommunity(api, "Certificados que falham")
  const hook = await hookFor(setup, "/failing")
  const template = await activeTemplate(api, setup, { name: "Quebrado" })
  // a font that cannot be loaded makes every render fail
  await query(
    roda,
    (sql) => sql`UPDATE certificate_templates SET font_id = 'missing' WHERE id = ${template.id} RETURNING id`
  )
  const { certificates } = await issueAndWait(api, setup, template.id, [setup.ana.profileId])
  expect(certificates[0]).toMatchObject({ status: "failed", attempts: 3 })
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(running().received.filter((r) => r.path === "/failing")).toHaveLength(0)

  await query(
    roda,
    (sql) => sql`UPDATE certificate_templates SET font_id = 'inter' WHERE id = ${template.id} RETURNING id`
  )
  expectOk(await api.post(`/api/certificates/${certificates[0].id}/retry`, undefined, setup.owner()))
  const retried = await detailOnce(setup, certificates[0].id, issued)
  const requests = await running().waitFor("/failing", 1)
  const delivered = verifiedEvents(hook.secret, requests)
  expect(delivered.map((e) => e.type)).toEqual(["certificate.issued"])
  expect(delivered[0].data).toEqual({ ...retried, communityId: setup.community.id })
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(running().received.filter((r) => r.path === "/failing")).toHaveLength(1)
})
