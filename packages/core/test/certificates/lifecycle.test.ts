import { execFileSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { NO_PDFTOTEXT, skipWhen } from "../../../../testing/skips"
import { as } from "../support/community"
import { expectError, expectInvalid, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { query } from "../support/sql"
import {
  activeTemplate,
  type CertificateCommunity,
  certificateCommunity,
  decodePng,
  fetchLocation,
  issueAndWait,
  STAFF_REQUIRED,
  waitForBatch
} from "./support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CertificateCommunity
let other: CertificateCommunity
let anaCertificate: any
let brunoCertificate: any
beforeAll(async () => {
  setup = await certificateCommunity(api)
  other = await certificateCommunity(api, "Outra")
  const template = await activeTemplate(api, setup)
  const { certificates } = await issueAndWait(api, setup, template.id, [setup.ana.profileId, setup.bruno.profileId])
  anaCertificate = certificates.find((c) => c.profileId === setup.ana.profileId)
  brunoCertificate = certificates.find((c) => c.profileId === setup.bruno.profileId)
}, 120_000)

describe("files", () => {
  skipWhen(NO_PDFTOTEXT).it(
    "redirects /pdf to a signed link serving a PDF whose text has the recipient's name",
    async () => {
      const reply = await api.get(`/api/certificates/${anaCertificate.id}/pdf`, as(setup.ana, setup.community))
      expect(reply.status).toBe(302)
      const location = reply.headers.get("location")!
      expect(location).toMatch(/^http:\/\/roda\.test\/api\/certificates\/files\//)
      const file = await fetchLocation(roda, location)
      expect(file.status).toBe(200)
      expect(file.headers.get("content-type")).toBe("application/pdf")
      expect(file.headers.get("cache-control")).toMatch(/^private, max-age=\d+$/)
      const dir = mkdtempSync(join(tmpdir(), "roda-pdf-"))
      const path = join(dir, "certificate.pdf")
      writeFileSync(path, new Uint8Array(await file.arrayBuffer()))
      const text = execFileSync("pdftotext", [path, "-"], { encoding: "utf8" })
      expect(text).toContain("Ana Aprendiz")
      expect(text).toContain(anaCertificate.code)
      expect(text).toContain("Curso de Cerâmica")
      const fonts = execFileSync("pdffonts", [path], { encoding: "utf8" })
      expect(fonts).toMatch(/Lora/)
      expect(fonts).toMatch(/Lora\S*\s+CID TrueType\s+Identity-H\s+yes/) // embedded
    }
  )

  it("redirects /image to a signed link serving PNGs that decode (card 1200×630 and the page)", async () => {
    const card = await api.get(`/api/certificates/${anaCertificate.id}/image`, setup.owner())
    expect(card.status).toBe(302)
    const file = await fetchLocation(roda, card.headers.get("location")!)
    expect(file.headers.get("content-type")).toBe("image/png")
    expect(await decodePng(new Uint8Array(await file.arrayBuffer()))).toMatchObject({ width: 1200, height: 630 })
    const page = await api.get(`/api/certificates/${anaCertificate.id}/image?variant=page`, setup.owner())
    const pageFile = await fetchLocation(roda, page.headers.get("location")!)
    const decoded = await decodePng(new Uint8Array(await pageFile.arrayBuffer()))
    expect(decoded.width).toBeGreaterThan(decoded.height) // landscape
  })

  it("refuses tampered links, other members and other communities", async () => {
    const reply = await api.get(`/api/certificates/${anaCertificate.id}/pdf`, setup.owner())
    const location = reply.headers.get("location")!
    const tampered = location.replace(/.$/, (c) => (c === "A" ? "B" : "A"))
    expect((await fetchLocation(roda, tampered)).status).toBe(404)
    const otherId = location.replace(anaCertificate.id, brunoCertificate.id)
    expect((await fetchLocation(roda, otherId)).status).toBe(404)
    expectError(await api.get(`/api/certificates/${anaCertificate.id}/pdf`, as(setup.bruno, setup.community)), 404)
    expectError(await api.get(`/api/certificates/${anaCertificate.id}/pdf`, other.owner()), 404)
  })
})

describe("detail, lists and indexing", () => {
  it("shows a certificate to its holder and staff only", async () => {
    const own = expectOk(await api.get(`/api/certificates/${anaCertificate.id}`, as(setup.ana, setup.community)))
    expect(own).toMatchObject({
      id: anaCertificate.id,
      status: "issued",
      recipientName: "Ana Aprendiz",
      lastError: null
    })
    expect(own).not.toHaveProperty("recipientEmail")
    expectError(await api.get(`/api/certificates/${anaCertificate.id}`, as(setup.bruno, setup.community)), 404)
    expectError(await api.get(`/api/certificates/${anaCertificate.id}`, other.owner()), 404)
    expectInvalid(await api.get(`/api/certificates/nope`, setup.owner()), "id", "params")
  })

  it("lists a space's certificates for staff with filters and keyset pages", async () => {
    const first = await api.get(`/api/certificates?spaceId=${setup.space.id}&limit=1`, setup.owner())
    expect(expectOk(first)).toHaveLength(1)
    const next = await api.get(
      `/api/certificates?spaceId=${setup.space.id}&limit=1&cursor=${first.body.pagination.nextCursor}`,
      setup.owner()
    )
    expect(expectOk(next)[0].id).not.toBe(first.body.data[0].id)
    const filtered = expectOk(
      await api.get(`/api/certificates?profileId=${setup.bruno.profileId}&status=issued`, setup.owner())
    )
    expect(filtered.map((c: any) => c.id)).toEqual([brunoCertificate.id])
    expectError(await api.get(`/api/certificates`, as(setup.ana, setup.community)), 403, STAFF_REQUIRED("member"))
    expectInvalid(await api.get(`/api/certificates?status=lost`, setup.owner()), "status", "query")
    expect(expectOk(await api.get(`/api/certificates`, other.owner()))).toHaveLength(0)
  })

  it("lists the caller's own certificates without a community header", async () => {
    const mine = expectOk(await api.get(`/api/certificates/mine`, { token: setup.ana.token }))
    expect(mine.map((c: any) => c.id)).toEqual([anaCertificate.id])
    expectError(await api.get(`/api/certificates/mine`), 401)
  })

  it("toggles indexing (holder or staff)", async () => {
    const on = expectOk(
      await api.patch(
        `/api/certificates/${anaCertificate.id}/indexing`,
        { indexing: true },
        as(setup.ana, setup.community)
      )
    )
    expect(on.indexing).toBe(true)
    expectInvalid(
      await api.patch(`/api/certificates/${anaCertificate.id}/indexing`, { indexing: "yes" }, setup.owner()),
      "indexing"
    )
    expectError(
      await api.patch(
        `/api/certificates/${anaCertificate.id}/indexing`,
        { indexing: false },
        as(setup.bruno, setup.community)
      ),
      404
    )
  })
})

describe("revoke, reissue, resend, delete", () => {
  it("resends the e-mail of an issued certificate", async () => {
    const before = (await outboxFor(roda, setup.bruno.email)).filter((m) => m.kind === "certificate-issued").length
    expectOk(await api.post(`/api/certificates/${brunoCertificate.id}/resend-email`, undefined, setup.owner()))
    const after = (await outboxFor(roda, setup.bruno.email)).filter((m) => m.kind === "certificate-issued").length
    expect(after).toBe(before + 1)
    expectError(
      await api.post(
        `/api/certificates/${brunoCertificate.id}/resend-email`,
        undefined,
        as(setup.bruno, setup.community)
      ),
      403
    )
  })

  it("refuses to delete an issued certificate; revokes with a reason (final); then deletes it", async () => {
    const refused = await api.del(`/api/certificates/${brunoCertificate.id}`, setup.owner())
    expectError(refused, 409, "Somente certificados failed ou revoked podem ser excluídos; este está issued.")
    expectInvalid(await api.post(`/api/certificates/${brunoCertificate.id}/revoke`, {}, setup.owner()), "reason")
    expectError(
      await api.post(
        `/api/certificates/${brunoCertificate.id}/revoke`,
        { reason: "x" },
        as(setup.bruno, setup.community)
      ),
      403
    )
    expectError(await api.post(`/api/certificates/${brunoCertificate.id}/revoke`, { reason: "x" }, other.owner()), 404)
    const revoked = expectOk(
      await api.post(`/api/certificates/${brunoCertificate.id}/revoke`, { reason: "Fraude na prova" }, setup.owner())
    )
    expect(revoked).toMatchObject({ status: "revoked", revokeReason: "Fraude na prova" })
    expect(revoked.revokedAt).toEqual(expect.any(String))
    const verdict = expectOk(await api.get(`/api/certificates/verify/${brunoCertificate.code}`))
    expect(verdict).toMatchObject({
      status: "revoked",
      valid: false,
      revokeReason: "Fraude na prova",
      revokedAt: revoked.revokedAt
    })
    const again = await api.post(`/api/certificates/${brunoCertificate.id}/revoke`, { reason: "x" }, setup.owner())
    expectError(again, 409, "Não é possível mudar de revoked para revoked. Movimentos permitidos: nenhum.")
    expectError(await api.post(`/api/certificates/${brunoCertificate.id}/reissue`, undefined, setup.owner()), 409)
    expectError(await api.post(`/api/certificates/${brunoCertificate.id}/resend-email`, undefined, setup.owner()), 409)
    expectError(await api.del(`/api/certificates/${brunoCertificate.id}`, other.owner()), 404)
    expectOk(await api.del(`/api/certificates/${brunoCertificate.id}`, setup.owner()))
    expectError(await api.get(`/api/certificates/${brunoCertificate.id}`, setup.owner()), 404)
    expectError(await api.get(`/api/certificates/verify/${brunoCertificate.code}`), 404)
  })

  it("reissues with the current profile name; the old one says superseded and links to the new", async () => {
    await query(
      roda,
      (sql) => sql`UPDATE profiles SET full_name = 'Ana Aprendiz Casada' WHERE id = ${setup.ana.profileId} RETURNING id`
    )
    const reply = await api.post(`/api/certificates/${anaCertificate.id}/reissue`, undefined, setup.owner())
    const fresh = expectOk(reply, 201)
    expect(fresh).toMatchObject({
      status: "pending",
      recipientName: "Ana Aprendiz Casada",
      supersedesId: anaCertificate.id
    })
    expect(fresh.code).not.toBe(anaCertificate.code)
    for (let i = 0; i < 400; i++) {
      const current = expectOk(await api.get(`/api/certificates/${fresh.id}`, setup.owner()))
      if (current.status === "issued") break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(expectOk(await api.get(`/api/certificates/${fresh.id}`, setup.owner())).status).toBe("issued")
    const old = expectOk(await api.get(`/api/certificates/verify/${anaCertificate.code}`))
    expect(old).toMatchObject({ status: "superseded", supersededBy: { code: fresh.code } })
    expectError(await api.post(`/api/certificates/${anaCertificate.id}/reissue`, undefined, setup.owner()), 409)
    expectError(await api.del(`/api/certificates/${anaCertificate.id}`, setup.owner()), 409)
  })
})

describe("generation failures", () => {
  it("fails after 3 attempts, counts it in the batch, and retry generates it again", async () => {
    const template = await activeTemplate(api, setup, { name: "Quebrado" })
    // a font that cannot be loaded makes every render fail
    await query(
      roda,
      (sql) => sql`UPDATE certificate_templates SET font_id = 'missing' WHERE id = ${template.id} RETURNING id`
    )
    const { batch, certificates } = await issueAndWait(api, setup, template.id, [setup.moderator.profileId])
    expect(batch).toMatchObject({ status: "completed_with_errors", total: 1, issued: 0, failed: 1 })
    expect(certificates[0]).toMatchObject({ status: "failed", attempts: 3 })
    expect(certificates[0].lastError).toEqual(expect.any(String))
    expectError(await api.post(`/api/certificates/${certificates[0].id}/revoke`, { reason: "x" }, setup.owner()), 409)
    expectError(await api.get(`/api/certificates/verify/${certificates[0].code}`), 404)
    expectError(await api.get(`/api/certificates/${certificates[0].id}/pdf`, setup.owner()), 409)

    await query(
      roda,
      (sql) => sql`UPDATE certificate_templates SET font_id = 'inter' WHERE id = ${template.id} RETURNING id`
    )
    const retried = expectOk(await api.post(`/api/certificates/${certificates[0].id}/retry`, undefined, setup.owner()))
    expect(retried).toMatchObject({ status: "pending", attempts: 0 })
    const done = await waitForBatch(api, setup, batch.id)
    expect(done).toMatchObject({ status: "completed", issued: 1, failed: 0 })
    expectError(await api.post(`/api/certificates/${certificates[0].id}/retry`, undefined, setup.owner()), 409)
  })

  it("deletes a failed certificate", async () => {
    const template = await activeTemplate(api, setup, { name: "Quebrado 2" })
    await query(
      roda,
      (sql) => sql`UPDATE certificate_templates SET font_id = 'missing' WHERE id = ${template.id} RETURNING id`
    )
    const { certificates } = await issueAndWait(api, setup, template.id, [setup.moderator.profileId])
    expectError(await api.del(`/api/certificates/${certificates[0].id}`, as(setup.ana, setup.community)), 403)
    expectOk(await api.del(`/api/certificates/${certificates[0].id}`, setup.owner()))
    expectError(await api.get(`/api/certificates/${certificates[0].id}`, setup.owner()), 404)
  })
})
