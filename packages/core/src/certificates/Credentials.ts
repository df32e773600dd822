import { Clock, Effect, Option, Redacted } from "effect"
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from "jose"
import type { CommunityId } from "../domain/Ids"
import { fromBase64Url, randomBytes, sha256Bytes, sha256Hex, toBase64Url, utf8Bytes, utf8Text } from "../platform/bytes"
import { Options } from "../platform/Options"
import { traced } from "../platform/traced"
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
    const wrapKeyBytes = sha256Bytes(`roda:certificate-issuer-keys:${Redacted.value(options.jwtSecret)}`)
    let wrapKey: Promise<CryptoKey> | undefined
    const aesKey = () =>
      wrapKey ??= crypto.subtle.importKey("raw", wrapKeyBytes as Uint8Array<ArrayBuffer>, "AES-GCM", false, [
        "encrypt",
        "decrypt"
      ])

    // AES-256-GCM (WebCrypto): the ciphertext is `data` followed by the 16-byte `tag`, stored apart.
    const seal = (jwk: JWK) =>
      Effect.promise(async () => {
        const iv = randomBytes(12)
        const sealed = new Uint8Array(
          await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await aesKey(), utf8Bytes(JSON.stringify(jwk)) as never)
        )
        return {
          iv: toBase64Url(iv),
          data: toBase64Url(sealed.subarray(0, sealed.length - 16)),
          tag: toBase64Url(sealed.subarray(sealed.length - 16))
        }
      })
    const open = async (sealed: { iv: string; data: string; tag: string }): Promise<JWK> => {
      const iv = fromBase64Url(sealed.iv)
      const data = fromBase64Url(sealed.data)
      const tag = fromBase64Url(sealed.tag)
      if (iv === undefined || data === undefined || tag === undefined) {
        throw new Error("Sealed issuer key is not base64url")
      }
      const joined = new Uint8Array(data.length + tag.length)
      joined.set(data)
      joined.set(tag, data.length)
      const text = await crypto.subtle.decrypt({ name: "AES-GCM", iv: iv as never }, await aesKey(), joined)
      return JSON.parse(utf8Text(new Uint8Array(text)))
    }

    /** The community's key pair, made (once; concurrent makers agree on the first) when missing. */
    const issuerKey = (communityId: CommunityId) =>
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
          yield* seal(privateJwk),
          now
        )
        return Option.getOrThrow(yield* repo.issuerKey(communityId))
      })

    const issuerId = (communityId: string) => `${base}/certificates/issuers/${communityId}`

    /** The credential (unsigned) of an issued certificate. */
    const credentialOf = (certificate: CertificateView, spaceTitle: string) => {
      const salt = sha256Hex(`salt:${certificate.id}`).slice(0, 16)
      const identityHash = "sha256$" + sha256Hex(certificate.recipientEmail.toLowerCase() + salt)
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
    const sign = traced("Credentials.sign")(function*(certificate: CertificateView, spaceTitle: string) {
      const key = yield* issuerKey(certificate.communityId)
      const vc = credentialOf(certificate, spaceTitle)
      const issuedAt = Math.floor((certificate.issuedAt ?? certificate.createdAt).getTime() / 1000)
      return yield* Effect.promise(async () => {
        const privateKey = await importJWK(await open(key.privateJwk as never), "EdDSA")
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
