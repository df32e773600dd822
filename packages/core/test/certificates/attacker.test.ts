import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { activeTemplate, type CertificateCommunity, certificateCommunity, issueAndWait, waitForBatch } from "./support"

/**
 * An attacker's review of certificates: who may reach which certificate, what the public
 * verification reveals, consent of the holder, races and retries.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CertificateCommunity
let other: CertificateCommunity
let template: any
let ana: any
let bruno: any
let foreignTemplate: any
let foreign: any
let foreignBatchId: string
beforeAll(async () => {
  setup = await certificateCommunity(api, "Ataque Certificados")
  other = await certificateCommunity(api, "Ataque Certificados outra")
  template = await activeTemplate(api, setup)
  const issued = await issueAndWait(api, setup, template.id, [setup.ana.profileId, setup.bruno.profileId])
  ana = issued.certificates.find((c) => c.profileId === setup.ana.profileId)
  bruno = issued.certificates.find((c) => c.profileId === setup.bruno.profileId)
  foreignTemplate = await activeTemplate(api, other)
  const there = await issueAndWait(api, other, foreignTemplate.id, [other.ana.profileId])
  foreign = there.certificates[0]
  foreignBatchId = there.batch.id
}, 180_000)

describe("consent: search-engine indexing publishes the holder's name", () => {
  it("only the holder turns indexing on; staff (also acting as the holder) may only turn it off", async () => {
    const path = `/api/certificates/${bruno.id}/indexing`
    expectError(await api.patch(path, { indexing: true }, setup.owner()), 403)
    expectError(await api.patch(path, { indexing: true }, as(setup.moderator, setup.community)), 403)
    expectError(
      await api.patch(path, { indexing: true }, { ...setup.owner(), profile: setup.bruno.profileId }),
      403
    )
    const page = await roda.handler(new Request(`http://roda.test/certificates/${bruno.code}`))
    expect(await page.text()).toContain(`content="noindex, nofollow"`)
    const on = expectOk(await api.patch(path, { indexing: true }, as(setup.bruno, setup.community)))
    expect(on.indexing).toBe(true)
    const off = expectOk(await api.patch(path, { indexing: false }, setup.owner()))
    expect(off.indexing).toBe(false)
  })
})

describe("the public verification reveals only what verification needs", () => {
  it("no e-mail, profile, account, batch or template ids in the verdict, page or credential", async () => {
    const verdict = expectOk(await api.get(`/api/certificates/verify/${ana.code}`))
    expect(Object.keys(verdict).sort()).toEqual([
      "code",
      "communityId",
      "credentialUrl",
      "imageUrl",
      "issuedAt",
      "jwksUrl",
      "pageUrl",
      "recipientName",
      "revokeReason",
      "revokedAt",
      "spaceTitle",
      "status",
      "supersededBy",
      "title",
      "valid"
    ])
    const text = JSON.stringify(verdict)
    for (const secret of [setup.ana.email, setup.ana.profileId, setup.ana.id, ana.id, ana.batchId, template.id]) {
      expect(text).not.toContain(secret)
    }
    const html = await (await roda.handler(new Request(`http://roda.test/certificates/${ana.code}`))).text()
    for (const secret of [setup.ana.email, setup.ana.profileId, setup.ana.id, ana.batchId]) {
      expect(html).not.toContain(secret)
    }
    const jwt = await (await roda.handler(new Request(`http://roda.test/certificates/${ana.code}/credential.jwt`)))
      .text()
    const payload = Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8")
    expect(payload).not.toContain(setup.ana.email)
    expect(payload).not.toContain(setup.ana.profileId)
    // pending certificates are not verifiable (no code leaks before it is issued)
    const rows = await query<{ code: string }>(
      roda,
      (sql) =>
        sql`SELECT code FROM certificates WHERE status <> 'issued' AND community_id = ${setup.community.id} LIMIT 1`
    )
    for (const row of rows) expectError(await api.get(`/api/certificates/verify/${row.code}`), 404)
  })
})

describe("a revoked or superseded certificate yields no fresh credential nor its card", () => {
  it("credential.jwt and image.png answer 404 once revoked or superseded; the page and verdict still tell why", async () => {
    const fabio = await setup.addMember("member", "Fabio Fraude")
    const gina = await setup.addMember("member", "Gina Gone")
    const { certificates } = await issueAndWait(api, setup, template.id, [fabio.profileId, gina.profileId])
    const revoked = certificates.find((row) => row.profileId === fabio.profileId)
    const superseded = certificates.find((row) => row.profileId === gina.profileId)
    const credential = (code: string) =>
      roda.handler(new Request(`http://roda.test/certificates/${code}/credential.jwt`))
    const card = (code: string) => roda.handler(new Request(`http://roda.test/certificates/${code}/image.png`))
    const page = async (code: string) =>
      (await roda.handler(new Request(`http://roda.test/certificates/${code}`))).text()
    expect((await credential(revoked.code)).status).toBe(200)
    expect((await card(revoked.code)).status).toBe(200)
    expect(await page(revoked.code)).toContain("image.png")
    expectOk(await api.post(`/api/certificates/${revoked.id}/revoke`, { reason: "fraude" }, setup.owner()))
    expect((await credential(revoked.code)).status).toBe(404)
    // nor a card that still looks valid: the page tells the verdict without it
    expect((await card(revoked.code)).status).toBe(404)
    const revokedPage = await page(revoked.code)
    expect(revokedPage).toContain("Certificado revogado")
    expect(revokedPage).not.toContain("image.png")
    expect(revokedPage).not.toContain("credential.jwt")
    expect(expectOk(await api.get(`/api/certificates/verify/${revoked.code}`))).toMatchObject({
      status: "revoked",
      valid: false,
      revokeReason: "fraude"
    })
    expectOk(await api.post(`/api/certificates/${superseded.id}/reissue`, undefined, setup.owner()), 201)
    expect((await credential(superseded.code)).status).toBe(404)
    expect((await card(superseded.code)).status).toBe(404)
    expect(expectOk(await api.get(`/api/certificates/verify/${superseded.code}`)).status).toBe("superseded")
  })
})

describe("another community's resources are 404, also with real ids", () => {
  it("certificate, batch and template routes answer 404 (or 400 for body references) across communities", async () => {
    const me = setup.owner()
    const id = foreign.id
    const t = foreignTemplate.id
    const requests: Array<[string, () => ReturnType<typeof api.get>]> = [
      ["detail", () => api.get(`/api/certificates/${id}`, me)],
      ["pdf", () => api.get(`/api/certificates/${id}/pdf`, me)],
      ["image", () => api.get(`/api/certificates/${id}/image`, me)],
      ["indexing", () => api.patch(`/api/certificates/${id}/indexing`, { indexing: false }, me)],
      ["revoke", () => api.post(`/api/certificates/${id}/revoke`, { reason: "x" }, me)],
      ["reissue", () => api.post(`/api/certificates/${id}/reissue`, undefined, me)],
      ["resend", () => api.post(`/api/certificates/${id}/resend-email`, undefined, me)],
      ["retry", () => api.post(`/api/certificates/${id}/retry`, undefined, me)],
      ["delete", () => api.del(`/api/certificates/${id}`, me)],
      ["batch", () => api.get(`/api/certificates/batches/${foreignBatchId}`, me)],
      ["template", () => api.get(`/api/certificates/templates/${t}`, me)],
      ["edit template", () => api.put(`/api/certificates/templates/${t}`, { name: "x" }, me)],
      ["archive", () => api.post(`/api/certificates/templates/${t}/archive`, undefined, me)],
      ["duplicate", () => api.post(`/api/certificates/templates/${t}/duplicate`, undefined, me)],
      ["preview", () => api.post(`/api/certificates/templates/${t}/preview`, undefined, me)],
      ["rule", () => api.get(`/api/certificates/spaces/${other.space.id}`, me)],
      ["set rule", () => api.put(`/api/certificates/spaces/${other.space.id}`, { issuer: "staff" }, me)]
    ]
    for (const [name, request] of requests) {
      const reply = await request()
      expect({ name, status: reply.status }).toEqual({ name, status: 404 })
    }
    // body references of another community are 400 naming the field, and issue nothing
    expectInvalid(
      await api.post(
        "/api/certificates",
        { templateId: t, spaceId: setup.space.id, profileIds: [setup.ana.profileId] },
        me
      ),
      "templateId"
    )
    expectInvalid(
      await api.post("/api/certificates", {
        templateId: template.id,
        spaceId: setup.space.id,
        profileIds: [other.ana.profileId]
      }, me),
      "profileIds.0"
    )
    // lists never show the other community's certificates
    const listed = expectOk(await api.get(`/api/certificates?profileId=${other.ana.profileId}`, me))
    expect(listed).toHaveLength(0)
    expect(expectOk(await api.get(`/api/certificates/${id}`, other.owner())).status).toBe("issued")
  })
})

describe("who may call", () => {
  it("members cannot reach another member's certificate nor any staff route", async () => {
    const member = as(setup.ana, setup.community)
    for (
      const [name, reply] of [
        ["detail", await api.get(`/api/certificates/${bruno.id}`, member)],
        ["pdf", await api.get(`/api/certificates/${bruno.id}/pdf`, member)],
        ["image", await api.get(`/api/certificates/${bruno.id}/image`, member)],
        ["indexing", await api.patch(`/api/certificates/${bruno.id}/indexing`, { indexing: false }, member)]
      ] as const
    ) expect({ name, status: reply.status }).toEqual({ name, status: 404 })
    for (
      const [name, reply] of [
        ["revoke own", await api.post(`/api/certificates/${ana.id}/revoke`, { reason: "x" }, member)],
        ["reissue own", await api.post(`/api/certificates/${ana.id}/reissue`, undefined, member)],
        ["delete", await api.del(`/api/certificates/${bruno.id}`, member)],
        [
          "issue to self",
          await api.post("/api/certificates", {
            templateId: template.id,
            spaceId: setup.space.id,
            profileIds: [setup.ana.profileId]
          }, member)
        ],
        ["templates", await api.get("/api/certificates/templates", member)],
        ["set rule", await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "staff" }, member)]
      ] as const
    ) expect({ name, status: reply.status }).toEqual({ name, status: 403 })
    expectError(await api.get(`/api/certificates/${ana.id}`), 401)
    expectError(await api.get("/api/certificates/mine"), 401)
  })

  it("a certificate goes only to an active member who accepted the community (an invited account is refused)", async () => {
    const outsider = await other.addMember("member", "Iris Invited")
    const invited = expectCreated(
      await api.post("/api/profiles/invite", { email: outsider.email }, setup.owner())
    )
    expect(invited.status).toBe("invited")
    expectInvalid(
      await api.post("/api/certificates", {
        templateId: template.id,
        spaceId: setup.space.id,
        profileIds: [invited.id]
      }, setup.owner()),
      "profileIds.0"
    )
    const rows = await query<{ count: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS count FROM certificates WHERE profile_id = ${invited.id}`
    )
    expect(rows[0]!.count).toBe(0)
  })
})

describe("races and retries", () => {
  it("parallel revocations and reissues of one certificate pass once", async () => {
    const carla = await setup.addMember("member", "Carla Concorrente")
    const dora = await setup.addMember("member", "Dora Dupla")
    const { certificates } = await issueAndWait(api, setup, template.id, [carla.profileId, dora.profileId])
    const c = certificates.find((row) => row.profileId === carla.profileId)
    const d = certificates.find((row) => row.profileId === dora.profileId)
    const revokes = await Promise.all(
      Array.from({ length: 3 }, () => api.post(`/api/certificates/${c.id}/revoke`, { reason: "fraude" }, setup.owner()))
    )
    expect(revokes.map((reply) => reply.status).sort()).toEqual([200, 409, 409])
    const reissues = await Promise.all(
      Array.from({ length: 3 }, () => api.post(`/api/certificates/${d.id}/reissue`, undefined, setup.owner()))
    )
    expect(reissues.map((reply) => reply.status).sort()).toEqual([201, 409, 409])
    const live = await query<{ count: number }>(roda, (sql) =>
      sql`SELECT count(*)::int AS count FROM certificates
        WHERE profile_id = ${dora.profileId} AND status NOT IN ('revoked', 'superseded')`)
    expect(live[0]!.count).toBe(1)
  })

  it("parallel activations of one template settle once", async () => {
    const draft = expectCreated(
      await api.post("/api/certificates/templates", { spaceId: setup.space.id, name: "Paralelo" }, setup.owner())
    )
    const replies = await Promise.all(
      Array.from(
        { length: 3 },
        () => api.post(`/api/certificates/templates/${draft.id}/activate`, undefined, setup.owner())
      )
    )
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409, 409])
  })

  it("a retried issue with one Idempotency-Key opens one batch; without a key the retry skips the holder", async () => {
    const eva = await setup.addMember("member", "Eva Eco")
    const key = `cert-${Date.now()}-${Math.random().toString(36).slice(2)}`
    const body = { templateId: template.id, spaceId: setup.space.id, profileIds: [eva.profileId] }
    const send = (headers: Record<string, string> = { "idempotency-key": key }) =>
      api.post("/api/certificates", body, { ...setup.owner(), headers })
    const first = expectOk(await send(), 202)
    const again = await Promise.all([send(), send()])
    for (const reply of again) expect(reply.body.data?.id).toBe(first.id)
    const batches = await query<{ count: number }>(
      roda,
      (sql) =>
        sql`SELECT count(*)::int AS count FROM certificate_batches b
        WHERE b.community_id = ${setup.community.id} AND EXISTS (SELECT 1 FROM certificates c
          WHERE c.batch_id = b.id AND c.profile_id = ${eva.profileId})`
    )
    expect(batches[0]!.count).toBe(1)
    const retried = expectOk(await send({}), 202)
    const finished = await waitForBatch(api, setup, retried.id)
    expect(finished).toMatchObject({ total: 1, skipped: 1, issued: 0 })
    const held = await query<{ count: number }>(
      roda,
      (sql) => sql`SELECT count(*)::int AS count FROM certificates WHERE profile_id = ${eva.profileId}`
    )
    expect(held[0]!.count).toBe(1)
  })
})

describe("input", () => {
  it("bad ids, bodies and queries answer 400 with errors[].param, never 500", async () => {
    const me = setup.owner()
    const cases: Array<[string, () => ReturnType<typeof api.get>, string, "body" | "query" | "params"]> = [
      ["list profileId", () => api.get("/api/certificates?profileId=nope", me), "profileId", "query"],
      ["list cursor", () => api.get("/api/certificates?cursor=%%%", me), "cursor", "query"],
      ["templates spaceId", () => api.get("/api/certificates/templates?spaceId=nope", me), "spaceId", "query"],
      [
        "issue no ids",
        () => api.post("/api/certificates", { templateId: template.id, spaceId: setup.space.id, profileIds: [] }, me),
        "profileIds",
        "body"
      ],
      [
        "issue bad id",
        () =>
          api.post("/api/certificates", { templateId: template.id, spaceId: setup.space.id, profileIds: ["x"] }, me),
        "profileIds.0",
        "body"
      ],
      ["revoke empty", () => api.post(`/api/certificates/${ana.id}/revoke`, { reason: "  " }, me), "reason", "body"],
      [
        "indexing text",
        () => api.patch(`/api/certificates/${ana.id}/indexing`, { indexing: "on" }, me),
        "indexing",
        "body"
      ],
      ["rule", () => api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "anyone" }, me), "issuer", "body"],
      ["detail id", () => api.get("/api/certificates/not-a-uuid", me), "id", "params"],
      ["batch id", () => api.get("/api/certificates/batches/not-a-uuid", me), "id", "params"]
    ]
    for (const [name, request, param, location] of cases) {
      const reply = await request()
      expect({ name, status: reply.status }).toEqual({ name, status: 400 })
      expectInvalid(reply, param, location)
    }
    for (const code of ["%00%00", "x".repeat(41), "ZZZZ-ZZZZ-ZZZZ-ZZZZ"]) {
      const reply = await api.get(`/api/certificates/verify/${code}`)
      expect([400, 404]).toContain(reply.status)
    }
  })
})
