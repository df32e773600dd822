import { Clock, Effect, Option, Redacted } from "effect"
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose"
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"
import { Options } from "../platform/Options"
import type { CertificateView } from "./Repo"
import { CertificatesRepo } from "./Repo"

/**
 * Open Badges 3.0: every issued certificate is also an `OpenBadgeCredential` (a W3C Verifiable
 * Credential) signed as a VC-JWT (`alg: EdDSA`, Ed25519) with its community's issuer key. The key
 * pair is made on first use; the private half is kept encrypted (AES-256-GCM under a key derived
 * from the JWT secret); every public key is published at `/.well-known/jwks.json` under its `kid`.
 */
export class Credentials extends Effect.Service<Credentials>()("@roda/core/CertificateCredentials", {
  effect: Effect.gen(function*() {
    const repo = yield* CertificatesRepo
    const options = yield* Options
    const base = options.publicBaseUrl.replace(/\/$/, "")
    const wrapKey = createHash("sha256").update(`roda:certificate-issuer-keys:${Redacted.value(options.jwtSecret)}`)
      .digest()

    const seal = (jwk: JWK) => {
      const iv = randomBytes(12)
      const cipher = createCipheriv("aes-256-gcm", wrapKey, iv)
      const data = Buffer.concat([cipher.update(JSON.stringify(jwk), "utf8"), cipher.final()])
      return {
        iv: iv.toString("base64url"),
        data: data.toString("base64url"),
        tag: cipher.getAuthTag().toString("base64url")
      }
    }
    const open = (sealed: { iv: string; data: string; tag: string }): JWK => {
      const decipher = createDecipheriv("aes-256-gcm", wrapKey, Buffer.from(sealed.iv, "base64url"))
      decipher.setAuthTag(Buffer.from(sealed.tag, "base64url"))
      const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, "base64url")), decipher.final()])
      return JSON.parse(text.toString("utf8"))
    }

    /** The community's key pair, made (once; concurrent makers agree on the first) when missing. */
    const issuerKey = (communityId: string) =>
      Effect.gen(function*() {
        const existing = yield* repo.issuerKey(communityId)
        if (Option.isSome(existing)) return existing.value
        const pair = yield* Effect.promise(() => generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true }))
        const publicJwk = yield* Effect.promise(() => exportJWK(pair.publicKey))
        const privateJwk = yield* Effect.promise(() => exportJWK(pair.privateKey))
        const kid = `${communityId}#ed25519-1`
        const now = new Date(yield* Clock.currentTimeMillis)
        yield* repo.insertIssuerKey(
          communityId,
          kid,
          { ...publicJwk, kid, alg: "EdDSA", use: "sig" },
          seal(privateJwk),
          now
        )
        return Option.getOrThrow(yield* repo.issuerKey(communityId))
      })

    const issuerId = (communityId: string) => `${base}/certificates/issuers/${communityId}`

    /** The credential (unsigned) of an issued certificate. */
    const credentialOf = (certificate: CertificateView, spaceTitle: string) => {
      const salt = createHash("sha256").update(`salt:${certificate.id}`).digest("hex").slice(0, 16)
      const identityHash = "sha256$" +
        createHash("sha256").update(certificate.recipientEmail.toLowerCase() + salt).digest("hex")
      const issuedAt = (certificate.issuedAt ?? certificate.createdAt).toISOString()
      return {
        "@context": [
          "https://www.w3.org/ns/credentials/v2",
          "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"
        ],
        id: `${base}/certificates/${certificate.code}`,
        type: ["VerifiableCredential", "OpenBadgeCredential"],
        issuer: { id: issuerId(certificate.communityId), type: ["Profile"], name: spaceTitle },
        validFrom: issuedAt,
        name: certificate.title,
        credentialSubject: {
          type: ["AchievementSubject"],
          name: certificate.recipientName,
          identifier: [{
            type: "IdentityObject",
            identityHash,
            identityType: "emailAddress",
            hashed: true,
            salt
          }],
          achievement: {
            id: `${base}/certificates/achievements/${certificate.templateId}`,
            type: ["Achievement"],
            name: certificate.title,
            description: `${certificate.templateName} — ${spaceTitle}`,
            criteria: { narrative: `Awarded by ${spaceTitle}.` }
          }
        }
      }
    }

    /** The VC-JWT of an issued certificate, signed with its community's key. */
    const sign = Effect.fn("Credentials.sign")(function*(certificate: CertificateView, spaceTitle: string) {
      const key = yield* issuerKey(certificate.communityId)
      const vc = credentialOf(certificate, spaceTitle)
      const issuedAt = Math.floor((certificate.issuedAt ?? certificate.createdAt).getTime() / 1000)
      return yield* Effect.promise(async () => {
        const privateKey = await importJWK(open(key.privateJwk as never), "EdDSA")
        return new SignJWT({ vc })
          .setProtectedHeader({ alg: "EdDSA", kid: key.kid, typ: "JWT" })
          .setIssuer(vc.issuer.id)
          .setSubject(vc.credentialSubject.identifier[0]!.identityHash)
          .setJti(vc.id)
          .setNotBefore(issuedAt)
          .setIssuedAt(issuedAt)
          .sign(privateKey)
      })
    })

    /** The JWKS of every community's issuer key. */
    const jwks = Effect.map(repo.publicKeys, (rows) => ({ keys: rows.map((row) => row.publicJwk) }))

    return { issuerKey, sign, jwks, credentialOf }
  }),
  dependencies: [CertificatesRepo.Default]
}) {}
