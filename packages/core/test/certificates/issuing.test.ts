import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import {
  activeTemplate,
  type CertificateCommunity,
  certificateCommunity,
  issueAndWait,
  STAFF_REQUIRED,
  waitForBatch
} from "./support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CertificateCommunity
let other: CertificateCommunity
beforeAll(async () => {
  setup = await certificateCommunity(api)
  other = await certificateCommunity(api, "Outra")
})

describe("POST /api/certificates", () => {
  it("issues a batch (202), generates every certificate and e-mails each holder", async () => {
    const template = await activeTemplate(api, setup)
    const { batch, certificates } = await issueAndWait(api, setup, template.id, [
      setup.ana.profileId,
      setup.bruno.profileId
    ])
    expect(batch).toMatchObject({ status: "completed", total: 2, issued: 2, failed: 0, skipped: 0, pending: 0 })
    expect(certificates).toHaveLength(2)
    for (const certificate of certificates) {
      expect(certificate.status).toBe("issued")
      expect(certificate.code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/)
      expect(certificate.issuedAt).not.toBeNull()
    }
    expect(certificates.map((c) => c.recipientName).sort()).toEqual(["Ana Aprendiz", "Bruno Bolsista"])
    const mails = (await outboxFor(roda, setup.ana.email)).filter((mail) => mail.kind === "certificate-issued")
    expect(mails).toHaveLength(1)
    const anaCode = certificates.find((c) => c.recipientName === "Ana Aprendiz").code
    expect(mails[0]!.body).toContain(`http://roda.test/certificates/${anaCode}`)
  })

  it("skips recipients who already hold one from the template", async () => {
    const template = await activeTemplate(api, setup, { name: "Skip" })
    await issueAndWait(api, setup, template.id, [setup.ana.profileId])
    const { batch } = await issueAndWait(api, setup, template.id, [setup.ana.profileId, setup.bruno.profileId])
    expect(batch).toMatchObject({ status: "completed", total: 2, issued: 1, skipped: 1, failed: 0 })
  })

  it("refuses a draft or archived template with 409, another space's template and unknown profiles with 400", async () => {
    const draft = expectOk(
      await api.post("/api/certificates/templates", { spaceId: setup.space.id, name: "Rascunho" }, setup.owner()),
      201
    )
    const refused = await api.post(
      "/api/certificates",
      { templateId: draft.id, spaceId: setup.space.id, profileIds: [setup.ana.profileId] },
      setup.owner()
    )
    expectError(refused, 409, "Somente modelos ativos emitem certificados; este está draft.")
    expect(refused.body.errors[0].param).toBe("templateId")

    const template = await activeTemplate(api, setup, { name: "Outro" })
    expectInvalid(
      await api.post(
        "/api/certificates",
        { templateId: template.id, spaceId: setup.space.id, profileIds: [setup.ana.profileId, unknownId()] },
        setup.owner()
      ),
      "profileIds.1"
    )
    // another community's profile is unknown here
    expectInvalid(
      await api.post(
        "/api/certificates",
        { templateId: template.id, spaceId: setup.space.id, profileIds: [other.ana.profileId] },
        setup.owner()
      ),
      "profileIds.0"
    )
    expectInvalid(
      await api.post(
        "/api/certificates",
        { templateId: template.id, spaceId: setup.space.id, profileIds: [] },
        setup.owner()
      ),
      "profileIds"
    )
    expectInvalid(
      await api.post("/api/certificates", {
        templateId: "nope",
        spaceId: setup.space.id,
        profileIds: [setup.ana.profileId]
      }, setup.owner()),
      "templateId"
    )
    // a template of another community is not found (400 on the body field)
    const foreign = await activeTemplate(api, other, { name: "Estrangeiro" })
    expectInvalid(
      await api.post("/api/certificates", {
        templateId: foreign.id,
        spaceId: setup.space.id,
        profileIds: [setup.ana.profileId]
      }, setup.owner()),
      "templateId"
    )
  })

  it("is for staff only", async () => {
    const template = await activeTemplate(api, setup, { name: "Staff" })
    const reply = await api.post(
      "/api/certificates",
      { templateId: template.id, spaceId: setup.space.id, profileIds: [setup.bruno.profileId] },
      as(setup.ana, setup.community)
    )
    expectError(reply, 403, STAFF_REQUIRED("member"))
    expectError(
      await api.post("/api/certificates", {
        templateId: template.id,
        spaceId: setup.space.id,
        profileIds: [setup.bruno.profileId]
      }),
      401
    )
  })
})

describe("concurrency", () => {
  it("issues each recipient once when the same batch is posted twice at the same time", async () => {
    const template = await activeTemplate(api, setup, { name: "Concorrente" })
    const body = {
      templateId: template.id,
      spaceId: setup.space.id,
      profileIds: [setup.ana.profileId, setup.bruno.profileId]
    }
    const replies = await Promise.all([
      api.post("/api/certificates", body, setup.owner()),
      api.post("/api/certificates", body, setup.owner())
    ])
    for (const reply of replies) expectOk(reply, 202)
    const batches = await Promise.all(replies.map((reply) => waitForBatch(api, setup, reply.body.data.id)))
    expect(batches.reduce((sum, batch) => sum + batch.issued, 0)).toBe(2)
    expect(batches.reduce((sum, batch) => sum + batch.skipped, 0)).toBe(2)
    const all = expectOk(await api.get(`/api/certificates?templateId=${template.id}`, setup.owner()))
    expect(all.map((c: any) => c.profileId).sort()).toEqual([setup.ana.profileId, setup.bruno.profileId].sort())
  })
})

describe("GET /api/certificates/batches/{id}", () => {
  it("answers 404 for another community's batch and 403 for members", async () => {
    const template = await activeTemplate(api, setup, { name: "Lote" })
    const { batch } = await issueAndWait(api, setup, template.id, [setup.ana.profileId])
    expectError(await api.get(`/api/certificates/batches/${batch.id}`, other.owner()), 404)
    expectError(await api.get(`/api/certificates/batches/${batch.id}`, as(setup.ana, setup.community)), 403)
    expectInvalid(await api.get(`/api/certificates/batches/not-an-id`, setup.owner()), "id", "params")
  })
})
