import { Effect, Layer } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { formatStored, parseStored, Passwords } from "../src/platform/Passwords"

const KEY_LENGTH = 64
const COST = { N: 16384, r: 8, p: 1 }

const derive = (password: string, salt: Uint8Array, params: typeof COST) =>
  Effect.async<Buffer>((resume) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      resume(error ? Effect.die(error) : Effect.succeed(key)))
  })

/**
 * Password hashing with node:crypto's scrypt (native, on the thread pool), in the stored form of
 * `Passwords` (`scrypt$N$r$p$<salt>$<key>`), which `Passwords.portable` reads and writes too.
 */
export const scryptPasswords = Layer.succeed(Passwords, {
  hash: (password) =>
    Effect.gen(function*() {
      const salt = randomBytes(16)
      return formatStored(salt, yield* derive(password, salt, COST))
    }),
  verify: (password, stored) =>
    Effect.gen(function*() {
      const parsed = parseStored(stored)
      if (parsed === undefined) return false
      const key = yield* derive(password, parsed.salt, parsed.cost)
      return parsed.key.length === key.length && timingSafeEqual(parsed.key, key)
    })
})
