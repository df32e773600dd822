import { createLocalJWKSet, jwtVerify } from "jose"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectError, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { activeTemplate, type CertificateCommunity, certificateCommunity, decodePng, issueAndWait } from "./support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CertificateCommunity
let certificate: any
beforeAll(async () => {
  setup = await certificateCommunity(api)
  const template = await activeTemplate(api, setup)
  const { certificates } = await issueAndWait(api, setup, template.id, [setup.ana.profileId])
  certificate = certificates[0]
}, 120_000)

const page = (path: string) => roda.handler(new Request(`http://roda.test${path}`))

describe("GET /api/certificates/verify/{code}", () => {
  it("verifies a valid certificate without token or community header", async () => {
    const verdict = expectOk(await api.get(`/api/certificates/verify/${certificate.code}`))
    expect(verdict).toMatchObject({
      code: certificate.code,
      status: "valid",
      valid: true,
      recipientName: "Ana Aprendiz",
      spaceTitle: "Curso de Cerâmica",
      revokedAt: null,
      supersededBy: null,
      pageUrl: `http://roda.test/certificates/${certificate.code}`
    })
  })

  it("forgives case, missing dashes and look-alike letters", async () => {
    const compact = certificate.code.replace(/-/g, "").toLowerCase()
    expect(expectOk(await api.get(`/api/certificates/verify/${compact}`)).code).toBe(certificate.code)
    const lookalike = certificate.code.replace(/1/g, "l").replace(/0/g, "o")
    expect(expectOk(await api.get(`/api/certificates/verify/${lookalike}`)).code).toBe(certificate.code)
  })

  it("answers 404 for unknown codes", async () => {
    expectError(
      await api.get(`/api/certificates/verify/ZZZZ-ZZZZ-ZZZZ-ZZZZ`),
      404,
      "Código de certificado não encontrado."
    )
    expectError(await api.get(`/api/certificates/verify/nonsense`), 404)
  })

  it("uses codes of 80 bits in 16 base32 characters", () => {
    expect(certificate.code.replace(/-/g, "")).toHaveLength(16) // 16 × 5 bits
  })
})

describe("public page, image, credential and JWKS", () => {
  it("serves the HTML page with Open Graph tags, noindex until indexing is on", async () => {
    const response = await page(`/certificates/${certificate.code}`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await response.text()
    expect(html).toContain(
      `<meta property="og:image" content="http://roda.test/certificates/${certificate.code}/image.png">`
    )
    expect(html).toContain(`<meta property="og:title"`)
    expect(html).toContain(`<meta name="robots" content="noindex, nofollow">`)
    expect(html).toContain("Ana Aprendiz")
    // the holder turns indexing on (staff may not: attacker.test.ts)
    expectOk(
      await api.patch(`/api/certificates/${certificate.id}/indexing`, { indexing: true }, {
        token: setup.ana.token,
        community: setup.community.id
      })
    )
    const indexed = await (await page(`/certificates/${certificate.code}`)).text()
    expect(indexed).toContain(`<meta name="robots" content="index, follow">`)
    expect((await page(`/certificates/ZZZZ-ZZZZ-ZZZZ-ZZZZ`)).status).toBe(404)
  })

  it("serves the social image publicly", async () => {
    const response = await page(`/certificates/${certificate.code}/image.png`)
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("image/png")
    expect(await decodePng(new Uint8Array(await response.arrayBuffer()))).toMatchObject({ width: 1200, height: 630 })
  })

  it("signs an Open Badges 3.0 credential that verifies with the published JWKS", async () => {
    const response = await page(`/certificates/${certificate.code}/credential.jwt`)
    expect(response.status).toBe(200)
    const jwt = await response.text()
    const jwksResponse = await page(`/.well-known/jwks.json`)
    expect(jwksResponse.status).toBe(200)
    const jwks = await jwksResponse.json()
    const key = jwks.keys.find((k: any) => k.kid === `${setup.community.id}#ed25519-1`)
    expect(key).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA" })
    expect(key).not.toHaveProperty("d")
    const { payload, protectedHeader } = await jwtVerify(jwt, createLocalJWKSet(jwks))
    expect(protectedHeader).toMatchObject({ alg: "EdDSA", kid: key.kid })
    const vc = payload.vc as any
    expect(vc.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"])
    expect(vc["@context"]).toContain("https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json")
    expect(vc.credentialSubject).toMatchObject({ type: ["AchievementSubject"], name: "Ana Aprendiz" })
    expect(vc.credentialSubject.achievement.type).toEqual(["Achievement"])
    expect(payload.jti).toBe(`http://roda.test/certificates/${certificate.code}`)
    // a tampered credential does not verify
    const [header, body, signature] = jwt.split(".")
    const forged = Buffer.from(JSON.stringify({ ...payload, vc: { ...vc, name: "Forged" } })).toString("base64url")
    await expect(jwtVerify(`${header}.${forged}.${signature}`, createLocalJWKSet(jwks))).rejects.toThrow()
    expect(body).toBeDefined()
  })
})
