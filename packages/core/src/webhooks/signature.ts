import { fromBase64, hmacSha256, randomBytes, toBase64 } from "../platform/bytes"

const PREFIX = "whsec_"

/** A new signing secret: `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export const newSecret = () => `${PREFIX}${toBase64(randomBytes(32))}`

const keyOf = (secret: string) => fromBase64(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret)

/**
 * `webhook-signature`: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` for each secret,
 * space separated (a receiver accepts any one it knows).
 */
export const signatures = (secrets: ReadonlyArray<string>, id: string, timestamp: number, body: string) =>
  secrets.map((secret) => {
    const key = keyOf(secret)
    if (key === undefined) throw new Error("a webhook secret is not base64")
    return `v1,${toBase64(hmacSha256(key, `${id}.${timestamp}.${body}`))}`
  }).join(" ")
