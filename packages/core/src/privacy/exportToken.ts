import { Schema } from "effect"
import { constantTimeEqual, fromBase64Url, hmacSha256, toBase64Url, utf8Bytes, utf8Text } from "../platform/bytes"

/** What a download link grants: the file of one export, until its expiry. */
export interface ExportGrant {
  readonly exportId: string
  /** Epoch milliseconds: the export's `expires_at`. */
  readonly expiresAt: number
}

const Claims = Schema.parseJson(Schema.Struct({ e: Schema.UUID, x: Schema.Int }))
const decodeClaims = Schema.decodeUnknownOption(Claims)

/** The key of download links, derived from the server's secret (never the secret's own MAC). */
export const exportLinkKey = (secret: string) => hmacSha256(utf8Bytes(secret), "roda data export download v1")

/** `<claims>.<mac>`, both base64url: the token of an export's download link. */
export const signExportLink = (key: Uint8Array, grant: ExportGrant): string => {
  const claims = toBase64Url(JSON.stringify({ e: grant.exportId, x: grant.expiresAt }))
  return `${claims}.${toBase64Url(hmacSha256(key, claims))}`
}

/** The grant of a token signed with `key` (expired or not); none for anything else. */
export const verifyExportLink = (key: Uint8Array, token: string): ExportGrant | undefined => {
  const [claims, mac, ...rest] = token.split(".")
  if (claims === undefined || mac === undefined || rest.length > 0 || claims.length > 500) return undefined
  const given = fromBase64Url(mac)
  if (given === undefined || !constantTimeEqual(given, hmacSha256(key, claims))) return undefined
  const bytes = fromBase64Url(claims)
  if (bytes === undefined) return undefined
  const decoded = decodeClaims(utf8Text(bytes))
  return decoded._tag === "None" ? undefined : { exportId: decoded.value.e.toLowerCase(), expiresAt: decoded.value.x }
}

/** The download link of an export, as e-mailed and shown in its status: valid until its expiry. */
export const downloadLink = (publicBaseUrl: string, key: Uint8Array, grant: ExportGrant) =>
  `${publicBaseUrl.replace(/\/$/, "")}/api/account/exports/${grant.exportId}/download?token=${
    signExportLink(key, grant)
  }`
