import { describe, expect, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { scryptPasswords } from "../../node/passwords"
import { isStrongPassword, Passwords } from "../../src/platform/Passwords"

layer(scryptPasswords)("Passwords", (it) => {
  it.effect("verifies the password it hashed, and no other", () =>
    Effect.gen(function*() {
      const passwords = yield* Passwords
      const stored = yield* passwords.hash("Secret123")
      expect(yield* passwords.verify("Secret123", stored)).toBe(true)
      expect(yield* passwords.verify("Secret124", stored)).toBe(false)
      expect(yield* passwords.verify("secret123", stored)).toBe(false)
      expect(yield* passwords.verify("", stored)).toBe(false)
    }))

  it.effect("stores scrypt with its parameters and a random salt, never the password", () =>
    Effect.gen(function*() {
      const passwords = yield* Passwords
      const a = yield* passwords.hash("Secret123")
      const b = yield* passwords.hash("Secret123")
      expect(a).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
      expect(a).not.toBe(b)
      expect(a).not.toContain("Secret123")
      expect(yield* passwords.verify("Secret123", b)).toBe(true)
    }))

  it.effect("verifies a hash stored before core became runtime-agnostic (the format never changes)", () =>
    Effect.gen(function*() {
      const passwords = yield* Passwords
      // Made by `Passwords.layer` on node:crypto's scrypt before the move to `@roda/core/node`.
      const stored = "scrypt$16384$8$1$fFsD4ldRpy+sbSbu92Fa9w==$" +
        "4il8Ped7F9EFZEr4lBQz/Qz2PWYIwQwIkiIQwbvcz8y/xLFa2EaH8Ep+w/6d2AFhBzZKe4FYygauNLoCbP/7Zg=="
      expect(yield* passwords.verify("Correct-Horse-9", stored)).toBe(true)
      expect(yield* passwords.verify("Correct-Horse-8", stored)).toBe(false)
    }))

  it.effect("treats canonically equivalent Unicode as the same password (NFKC)", () =>
    Effect.gen(function*() {
      const passwords = yield* Passwords
      const stored = yield* passwords.hash("Senh\u00e3Forte1")
      expect(yield* passwords.verify("Senha\u0303Forte1", stored)).toBe(true)
    }))

  it.effect("answers false for a stored value it does not understand", () =>
    Effect.gen(function*() {
      const passwords = yield* Passwords
      expect(yield* passwords.verify("Secret123", "")).toBe(false)
      expect(yield* passwords.verify("Secret123", "Secret123")).toBe(false)
      expect(yield* passwords.verify("Secret123", "bcrypt$10$abc$def$ghi")).toBe(false)
      const stored = yield* passwords.hash("Secret123")
      const truncated = stored.slice(0, stored.lastIndexOf("$") + 5)
      expect(yield* passwords.verify("Secret123", truncated)).toBe(false)
    }))
})

// The same tests for the JavaScript scrypt other runtimes may use.
layer(Passwords.portable)("Passwords.portable", (it) => {
  it.effect("verifies the hash stored before the move, and hashes that node:crypto's scrypt verifies", () =>
    Effect.gen(function*() {
      const portable = yield* Passwords
      const stored = "scrypt$16384$8$1$fFsD4ldRpy+sbSbu92Fa9w==$" +
        "4il8Ped7F9EFZEr4lBQz/Qz2PWYIwQwIkiIQwbvcz8y/xLFa2EaH8Ep+w/6d2AFhBzZKe4FYygauNLoCbP/7Zg=="
      expect(yield* portable.verify("Correct-Horse-9", stored)).toBe(true)
      expect(yield* portable.verify("Correct-Horse-8", stored)).toBe(false)
      const mine = yield* portable.hash("Senh\u00e3Forte1")
      expect(mine).toMatch(/^scrypt\$16384\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/)
      const native = yield* Effect.provide(Passwords, scryptPasswords)
      expect(yield* native.verify("Senha\u0303Forte1", mine)).toBe(true)
      expect(yield* portable.verify("Secret123", yield* native.hash("Secret123"))).toBe(true)
      expect(yield* portable.verify("Secret123", "scrypt$x$8$1$c2FsdA==$a2V5")).toBe(false)
    }))
})

describe("isStrongPassword", () => {
  it.effect.each(
    [
      ["Secret123", true],
      ["Abcdef12", true],
      ["Çãõ-Ab1x", true],
      ["Abcde12", false],
      ["abcdefg1", false],
      ["ABCDEFG1", false],
      ["Abcdefgh", false],
      ["12345678", false],
      ["", false]
    ] as const
  )("%j -> %s", ([password, strong]) => Effect.sync(() => expect(isStrongPassword(password)).toBe(strong)))
})
