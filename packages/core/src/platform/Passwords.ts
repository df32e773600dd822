import { Context, Effect, Layer } from "effect"
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto"

const KEY_LENGTH = 64
const COST = { N: 16384, r: 8, p: 1 }

const derive = (password: string, salt: Buffer, params: typeof COST) =>
  Effect.async<Buffer>((resume) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { ...params, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      resume(error ? Effect.die(error) : Effect.succeed(key)))
  })

/** Password hashing with scrypt; the stored form records its parameters so they can be raised later. */
export class Passwords extends Context.Tag("@roda/core/Passwords")<Passwords, {
  readonly hash: (password: string) => Effect.Effect<string>
  readonly verify: (password: string, stored: string) => Effect.Effect<boolean>
}>() {
  static readonly layer = Layer.succeed(Passwords, {
    hash: (password) =>
      Effect.gen(function*() {
        const salt = randomBytes(16)
        const key = yield* derive(password, salt, COST)
        return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString("base64")}$${key.toString("base64")}`
      }),
    verify: (password, stored) =>
      Effect.gen(function*() {
        const [scheme, N, r, p, salt, expected] = stored.split("$")
        if (scheme !== "scrypt" || !salt || !expected) return false
        const key = yield* derive(password, Buffer.from(salt, "base64"), { N: Number(N), r: Number(r), p: Number(p) })
        const want = Buffer.from(expected, "base64")
        return want.length === key.length && timingSafeEqual(want, key)
      })
  })
}

/** Spec §5.6 and §8: at least 8 characters, with an uppercase letter, a lowercase letter and a number. */
export const isStrongPassword = (password: string): boolean =>
  password.length >= 8 && /[A-Z]/.test(password) && /[a-z]/.test(password) && /[0-9]/.test(password)
