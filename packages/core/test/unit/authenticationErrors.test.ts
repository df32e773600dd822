import { HttpServerRequest } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Layer, Option } from "effect"
import { beforeEach, vi } from "vitest"
import { makeReadToken, requireAccount } from "../../src/app/middleware/Authentication"
import type * as AppErrors from "../../src/domain/AppError"
import { unauthorized } from "../../src/domain/AppError"
import { defaultOptions, Options, secret } from "../../src/platform/Options"
import { Tokens } from "../../src/platform/Tokens"

// Counts the 401s built: a valid token must build none (each would capture a stack trace).
vi.mock("../../src/domain/AppError", async (importOriginal) => {
  const original = await importOriginal<typeof AppErrors>()
  return { ...original, unauthorized: vi.fn(original.unauthorized) }
})

const ACCOUNT = "7b0c3e2a-9d4f-4a51-8c6e-2f1d0a9b8c7d"

const tokens = Tokens.layer.pipe(
  Layer.provide(
    Layer.succeed(Options, defaultOptions({ jwtSecret: secret("unit-test-secret-that-is-long-enough-for-hs256") }))
  )
)

const readWith = (authorization: string | undefined) =>
  Effect.flatMap(makeReadToken, (read) =>
    Effect.provideService(
      read,
      HttpServerRequest.HttpServerRequest,
      HttpServerRequest.fromWeb(
        new Request("http://roda.test/api/auth/me", {
          headers: authorization === undefined ? {} : { authorization }
        })
      )
    ))

describe("Authentication builds no error on the success path", () => {
  // a block: a function returned by beforeEach is run as its cleanup
  beforeEach(() => {
    vi.mocked(unauthorized).mockClear()
  })

  it.effect("a valid token and no token build no 401; a bad one builds one", () =>
    Effect.gen(function*() {
      const issued = yield* Effect.flatMap(Tokens, (t) =>
        t.issue({ accountId: ACCOUNT, email: "ana@roda.test", sessionId: "ses-1" }))

      const valid = yield* readWith(`Bearer ${issued}`)
      expect(valid).toEqual(Option.some({ accountId: ACCOUNT, sessionId: "ses-1" }))
      const none = yield* readWith(undefined)
      expect(Option.isNone(none)).toBe(true)
      const account = yield* requireAccount(Effect.succeed(Option.some(ACCOUNT)))
      expect(account).toBe(ACCOUNT)
      expect(vi.mocked(unauthorized)).not.toHaveBeenCalled()

      const refused = yield* Effect.exit(readWith(`Bearer ${issued}x`))
      expect(Exit.isFailure(refused)).toBe(true)
      const malformed = yield* Effect.exit(readWith("Basic abc"))
      expect(Exit.isFailure(malformed)).toBe(true)
      // a token of no session (issued before sessions) is refused
      const legacy = yield* Effect.flatMap(Tokens, (t) =>
        t.issue({ accountId: ACCOUNT, email: "ana@roda.test" }))
      expect(Exit.isFailure(yield* Effect.exit(readWith(`Bearer ${legacy}`)))).toBe(true)
      expect(vi.mocked(unauthorized)).toHaveBeenCalledTimes(3)
    }).pipe(Effect.provide(tokens)))
})
