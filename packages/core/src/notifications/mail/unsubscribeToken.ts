import { Schema } from "effect"
import { constantTimeEqual, fromBase64Url, hmacSha256, toBase64Url, utf8Bytes, utf8Text } from "../../platform/bytes"
import { NOTIFICATION_KINDS, type NotificationKind } from "../kinds"

/** Whose e-mail of which kinds a link turns off. */
export interface Unsubscription {
  readonly communityId: string
  readonly profileId: string
  readonly kinds: ReadonlyArray<NotificationKind>
}

const Claims = Schema.parseJson(Schema.Struct({
  c: Schema.UUID,
  p: Schema.UUID,
  k: Schema.Array(Schema.Literal(...NOTIFICATION_KINDS)).pipe(Schema.minItems(1))
}))
const decodeClaims = Schema.decodeUnknownOption(Claims)

/** The key of unsubscribe links, derived from the server's secret (a link never carries the secret's own MAC). */
export const unsubscribeKey = (secret: string) => hmacSha256(utf8Bytes(secret), "roda notification unsubscribe v1")

/**
 * `<claims>.<mac>`, both base64url: the link in a notification e-mail. It does not expire (an old
 * e-mail's link still works, as RFC 8058 expects) and only ever turns e-mail off.
 */
export const signUnsubscribe = (key: Uint8Array, what: Unsubscription): string => {
  const claims = toBase64Url(JSON.stringify({ c: what.communityId, p: what.profileId, k: what.kinds }))
  return `${claims}.${toBase64Url(hmacSha256(key, claims))}`
}

/** The unsubscription a token signed with `key` names; none for anything else. */
export const verifyUnsubscribe = (key: Uint8Array, token: string): Unsubscription | undefined => {
  const [claims, mac, ...rest] = token.split(".")
  if (claims === undefined || mac === undefined || rest.length > 0 || claims.length > 2_000) return undefined
  const given = fromBase64Url(mac)
  if (given === undefined || !constantTimeEqual(given, hmacSha256(key, claims))) return undefined
  const bytes = fromBase64Url(claims)
  if (bytes === undefined) return undefined
  const decoded = decodeClaims(utf8Text(bytes))
  return decoded._tag === "None"
    ? undefined
    : { communityId: decoded.value.c, profileId: decoded.value.p, kinds: decoded.value.k }
}
