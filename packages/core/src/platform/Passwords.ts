import { scryptAsync } from "@noble/hashes/scrypt.js"
import { Context, Effect, Layer } from "effect"
import { constantTimeEqual, fromBase64, randomBytes, toBase64, utf8Bytes } from "./bytes"

const KEY_LENGTH = 64

/** scrypt's parameters: N (CPU and memory), r (block size), p (parallelism). */
export interface ScryptCost {
  readonly N: number
  readonly r: number
  readonly p: number
}

/** The cost new hashes are made with (16 MB and ~40 ms a hash on one core). */
export const PASSWORD_COST: ScryptCost = { N: 16384, r: 8, p: 1 }
/** The stored form: `scrypt$N$r$p$<salt base64>$<key base64>`, its parameters kept so they can be raised later. */
const SCHEME = "scrypt"

/** The salt, key and parameters of a stored hash; undefined for anything else. */
export const parseStored = (stored: string) => {
  const [scheme, N, r, p, salt, expected] = stored.split("$")
  if (scheme !== SCHEME || !salt || !expected) return undefined
  const cost = { N: Number(N), r: Number(r), p: Number(p) }
  if (!Object.values(cost).every((value) => Number.isSafeInteger(value) && value > 0)) return undefined
  const saltBytes = fromBase64(salt)
  const key = fromBase64(expected)
  return saltBytes === undefined || key === undefined ? undefined : { cost, salt: saltBytes, key }
}

export const formatStored = (salt: Uint8Array, key: Uint8Array, cost: ScryptCost = PASSWORD_COST) =>
  `${SCHEME}$${cost.N}$${cost.r}$${cost.p}$${toBase64(salt)}$${toBase64(key)}`

/**
 * Password hashing, a port: the platform provides it. `@roda/core/node` uses node:crypto's scrypt
 * (native, on the thread pool); `Passwords.portable` is the same scrypt in JavaScript (`@noble/hashes`)
 * for runtimes without it. Both write and read one stored form, so either verifies the other's hashes.
 */
export class Passwords extends Context.Tag("@roda/core/Passwords")<Passwords, {
  readonly hash: (password: string) => Effect.Effect<string>
  readonly verify: (password: string, stored: string) => Effect.Effect<boolean>
}>() {
  static readonly portable = Layer.succeed(Passwords, {
    hash: (password) =>
      Effect.promise(async () => {
        const salt = randomBytes(16)
        return formatStored(salt, await derive(password, salt, PASSWORD_COST))
      }),
    verify: (password, stored) =>
      Effect.promise(async () => {
        const parsed = parseStored(stored)
        if (parsed === undefined) return false
        return constantTimeEqual(parsed.key, await derive(password, parsed.salt, parsed.cost))
      })
  })
}

const derive = (password: string, salt: Uint8Array, cost: ScryptCost) =>
  scryptAsync(utf8Bytes(password.normalize("NFKC")), salt, {
    ...cost,
    dkLen: KEY_LENGTH,
    maxmem: 64 * 1024 * 1024
  })

export { isStrongPassword } from "./passwordStrength"
