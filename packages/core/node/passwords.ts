import { Effect, Layer } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"
import { formatStored, parseStored, PASSWORD_COST, Passwords, type ScryptCost } from "../src/platform/Passwords"

const KEY_LENGTH = 64

const derive = (password: string, salt: Uint8Array, params: ScryptCost) =>
  Effect.async<Buffer>((resume) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      resume(error ? Effect.die(error) : Effect.succeed(key)))
  })

/**
 * Password hashing with node:crypto's scrypt (native, on the thread pool) at `cost`, in the stored
 * form of `Passwords` (`scrypt$N$r$p$<salt>$<key>`), which `Passwords.portable` reads and writes too.
 * Each hash keeps its cost, so hashes of any cost verify whatever the cost of new ones. The test
 * suites hash at a lower cost (testing/passwords.ts): the same scrypt, in a sixteenth of the time.
 */
export const scryptPasswordsAt = (cost: ScryptCost) =>
  Layer.succeed(Passwords, {
    hash: (password) =>
      Effect.gen(function*() {
        const salt = randomBytes(16)
        return formatStored(salt, yield* derive(password, salt, cost), cost)
      }),
    verify: (password, stored) =>
      Effect.gen(function*() {
        const parsed = parseStored(stored)
        if (parsed === undefined) return false
        const key = yield* derive(password, parsed.salt, parsed.cost)
        return parsed.key.length === key.length && timingSafeEqual(parsed.key, key)
      })
  })

/** scrypt at `PASSWORD_COST`: the Node platform's password hashing. */
export const scryptPasswords = scryptPasswordsAt(PASSWORD_COST)
