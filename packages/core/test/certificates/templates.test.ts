import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { createSpace } from "../support/structure"
import { type CertificateCommunity, certificateCommunity, createTemplate, STAFF_REQUIRED } from "./support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CertificateCommunity
let other: CertificateCommunity
beforeAll(async () => {
  setup = await certificateCommunity(api)
  other = await certificateCommunity(api, "Outra")
})

// A 1×1 PNG and the start of a JPEG.
const PNG =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

describe("GET /api/certificates/fonts", () => {
  it("lists the catalogue (Public) with fonts shipped from npm", async () => {
    const fonts = expectOk(await api.get("/api/certificates/fonts", { community: setup.community.id }))
    expect(fonts.map((font: any) => font.id)).toEqual(
      expect.arrayContaining(["inter", "lora", "playfair-display", "great-vibes", "roboto-mono"])
    )
    for (const font of fonts) expect(font.package).toMatch(/^@fontsource\//)
    expectInvalid(await api.get("/api/certificates/fonts"), "X-CommunityId", "headers")
  })
})

describe("space rule", () => {
  it("is Public to read, staff to set; the rule must fit the module", async () => {
    const initial = expectOk(
      await api.get(`/api/certificates/spaces/${setup.space.id}`, { community: setup.community.id })
    )
    expect(initial).toMatchObject({ spaceId: setup.space.id, issuer: "staff", canIssue: false, canSeeOwn: false })
    const asOwner = expectOk(await api.get(`/api/certificates/spaces/${setup.space.id}`, setup.owner()))
    expect(asOwner).toMatchObject({ canIssue: true, canManageTemplates: true, canSetRule: true })
    const asMember = expectOk(
      await api.get(`/api/certificates/spaces/${setup.space.id}`, as(setup.ana, setup.community))
    )
    expect(asMember).toMatchObject({ canIssue: false, canSeeOwn: true })

    const set = expectOk(
      await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "course_completion" }, setup.owner())
    )
    expect(set.issuer).toBe("course_completion")
    expect(
      expectOk(await api.get(`/api/certificates/spaces/${setup.space.id}`, { community: setup.community.id })).issuer
    )
      .toBe("course_completion")
    expectInvalid(
      await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "event_attendance" }, setup.owner()),
      "issuer"
    )
    expectInvalid(
      await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "robots" }, setup.owner()),
      "issuer"
    )
    expectError(
      await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "staff" }, as(setup.ana, setup.community)),
      403,
      STAFF_REQUIRED("member")
    )
    expectError(await api.get(`/api/certificates/spaces/${setup.space.id}`, { community: other.community.id }), 404)
    expectError(await api.put(`/api/certificates/spaces/${setup.space.id}`, { issuer: "staff" }, other.owner()), 404)
  })

  it("hides a private space from anonymous visitors", async () => {
    const hidden = await createSpace(api, { ...setup, owner: setup.ownerUser }, setup.section.id, {
      title: "Privado",
      visibility: "secret"
    })
    expectError(await api.get(`/api/certificates/spaces/${hidden.id}`, { community: setup.community.id }), 404)
  })
})

describe("templates", () => {
  it("creates a draft with defaults and validates every field", async () => {
    const template = expectCreated(
      await api.post("/api/certificates/templates", { spaceId: setup.space.id, name: "Básico" }, setup.owner())
    )
    expect(template).toMatchObject({
      status: "draft",
      name: "Básico",
      title: "Básico",
      fontId: "inter",
      orientation: "landscape",
      pageSize: "A4",
      background: "#ffffff",
      hasLogo: false,
      allowedMoves: ["active", "archived"]
    })
    expect(template.body).toContain("{{name}}")
    const base = { spaceId: setup.space.id, name: "X" }
    expectInvalid(await api.post("/api/certificates/templates", { name: "X" }, setup.owner()), "spaceId")
    expectInvalid(
      await api.post("/api/certificates/templates", { ...base, spaceId: other.space.id }, setup.owner()),
      "spaceId"
    )
    expectInvalid(
      await api.post("/api/certificates/templates", { ...base, fontId: "comic-sans" }, setup.owner()),
      "fontId"
    )
    expectInvalid(
      await api.post("/api/certificates/templates", { ...base, orientation: "square" }, setup.owner()),
      "orientation"
    )
    expectInvalid(
      await api.post("/api/certificates/templates", { ...base, background: "red" }, setup.owner()),
      "background"
    )
    expectInvalid(
      await api.post("/api/certificates/templates", { ...base, logo: "data:image/gif;base64,R0lG" }, setup.owner()),
      "logo"
    )
    // declared PNG, but the bytes are not a PNG
    expectInvalid(
      await api.post(
        "/api/certificates/templates",
        { ...base, signature: "data:image/png;base64,aGVsbG8gd29ybGQ=" },
        setup.owner()
      ),
      "signature"
    )
    const big = `data:image/png;base64,${Buffer.alloc(300 * 1024, 1).toString("base64")}`
    expectInvalid(await api.post("/api/certificates/templates", { ...base, logo: big }, setup.owner()), "logo")
    expectInvalid(await api.post("/api/certificates/templates", { ...base, unknown: 1 }, setup.owner()), "unknown")
    expectError(
      await api.post("/api/certificates/templates", base, as(setup.ana, setup.community)),
      403,
      STAFF_REQUIRED("member")
    )
    const withLogo = expectCreated(await api.post("/api/certificates/templates", { ...base, logo: PNG }, setup.owner()))
    expect(withLogo.hasLogo).toBe(true)
  })

  it("edits, activates, archives (409 on refused moves) and duplicates", async () => {
    const template = await createTemplate(api, setup, { name: "Ciclo" })
    const edited = expectOk(
      await api.put(`/api/certificates/templates/${template.id}`, {
        title: "Novo título",
        orientation: "portrait",
        pageSize: "Letter",
        logo: PNG
      }, setup.owner())
    )
    expect(edited).toMatchObject({
      title: "Novo título",
      orientation: "portrait",
      pageSize: "Letter",
      hasLogo: true,
      status: "draft"
    })
    const active = expectOk(
      await api.post(`/api/certificates/templates/${template.id}/activate`, undefined, setup.owner())
    )
    expect(active).toMatchObject({ status: "active", allowedMoves: ["archived"] })
    const again = await api.post(`/api/certificates/templates/${template.id}/activate`, undefined, setup.owner())
    expectError(again, 409, "Não é possível mudar de active para active. Movimentos permitidos: archived.")
    expect(again.body.errors[0].param).toBe("status")
    // active templates stay editable
    expectOk(await api.put(`/api/certificates/templates/${template.id}`, { name: "Ciclo 2" }, setup.owner()))
    expect(
      expectOk(await api.post(`/api/certificates/templates/${template.id}/archive`, undefined, setup.owner())).status
    )
      .toBe("archived")
    expectError(await api.post(`/api/certificates/templates/${template.id}/archive`, undefined, setup.owner()), 409)
    expectError(await api.post(`/api/certificates/templates/${template.id}/activate`, undefined, setup.owner()), 409)
    expectError(
      await api.put(`/api/certificates/templates/${template.id}`, { name: "Tarde demais" }, setup.owner()),
      409
    )

    const copy = expectCreated(
      await api.post(`/api/certificates/templates/${template.id}/duplicate`, undefined, setup.owner())
    )
    expect(copy).toMatchObject({ status: "draft", name: "Ciclo 2 (cópia)", title: "Novo título", hasLogo: true })
    expect(copy.id).not.toBe(template.id)

    const detail = expectOk(await api.get(`/api/certificates/templates/${copy.id}`, setup.owner()))
    expect(detail.id).toBe(copy.id)
    const list = expectOk(
      await api.get(`/api/certificates/templates?spaceId=${setup.space.id}&status=archived`, setup.owner())
    )
    expect(list.map((t: any) => t.id)).toContain(template.id)
    expect(list.every((t: any) => t.status === "archived")).toBe(true)
  })

  it("answers 404 across communities and 403 to members", async () => {
    const template = await createTemplate(api, setup, { name: "Privado" })
    for (const path of ["", "/activate", "/archive", "/duplicate", "/preview"]) {
      const reply = path === ""
        ? await api.get(`/api/certificates/templates/${template.id}`, other.owner())
        : await api.post(`/api/certificates/templates/${template.id}${path}`, undefined, other.owner())
      expectError(reply, 404)
    }
    expectError(await api.get(`/api/certificates/templates/${template.id}`, as(setup.ana, setup.community)), 403)
    expectError(await api.get(`/api/certificates/templates/${unknownId()}`, setup.owner()), 404)
    expectInvalid(await api.get(`/api/certificates/templates/123`, setup.owner()), "id", "params")
    expect(expectOk(await api.get("/api/certificates/templates", other.owner())).map((t: any) => t.id))
      .not.toContain(template.id)
  })

  it("pages templates with a keyset cursor", async () => {
    for (let i = 0; i < 3; i++) await createTemplate(api, other, { name: `Página ${i}` })
    const first = await api.get("/api/certificates/templates?limit=2", other.owner())
    expect(expectOk(first)).toHaveLength(2)
    expect(first.body.pagination.nextCursor).toEqual(expect.any(String))
    const second = await api.get(
      `/api/certificates/templates?limit=2&cursor=${first.body.pagination.nextCursor}`,
      other.owner()
    )
    const ids = [...first.body.data, ...second.body.data].map((t: any) => t.id)
    expect(new Set(ids).size).toBe(ids.length)
    expectInvalid(await api.get("/api/certificates/templates?cursor=bogus", other.owner()), "cursor", "query")
  })

  it("previews a template as PNG or PDF without storing anything", async () => {
    const template = await createTemplate(api, setup, { name: "Prévia" })
    const png = await roda.handler(
      new Request(`http://roda.test/api/certificates/templates/${template.id}/preview`, {
        method: "POST",
        headers: { authorization: `Bearer ${setup.owner().token}`, "x-communityid": setup.community.id }
      })
    )
    expect(png.status).toBe(200)
    expect(png.headers.get("content-type")).toBe("image/png")
    const bytes = new Uint8Array(await png.arrayBuffer())
    expect([...bytes.slice(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47])
    const pdf = await roda.handler(
      new Request(`http://roda.test/api/certificates/templates/${template.id}/preview?format=pdf`, {
        method: "POST",
        headers: { authorization: `Bearer ${setup.owner().token}`, "x-communityid": setup.community.id }
      })
    )
    expect(pdf.headers.get("content-type")).toBe("application/pdf")
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-")
    const certificates = expectOk(await api.get(`/api/certificates?templateId=${template.id}`, setup.owner()))
    expect(certificates).toHaveLength(0)
  })
})
