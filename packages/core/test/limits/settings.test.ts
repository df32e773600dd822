import { ConfigProvider, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { DEFAULT_RATE_LIMITS, loadRodaEnvironment } from "../../node/index"
import { RodaConfigError } from "../../src/app/validateConfig"
import { startRoda } from "../support/harness"

const load = (env: Record<string, string>) =>
  Effect.runPromiseExit(
    loadRodaEnvironment.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

const failure = (exit: Exit.Exit<unknown, unknown>) => (Exit.isFailure(exit) ? String(exit.cause) : "succeeded")

describe("RATE_LIMITS and makeRoda's rateLimits", () => {
  it("keeps the table's defaults when unset", async () => {
    const exit = await load({ DATA_DIR: "memory" })
    if (!Exit.isSuccess(exit)) throw new Error(failure(exit))
    expect(exit.value.options.rateLimits).toBeUndefined()
    expect(DEFAULT_RATE_LIMITS).toEqual({
      recovery: { limit: 3, windowSeconds: 3600, clientLimit: 20 },
      verifyEmail: { limit: 3, windowSeconds: 3600 },
      register: { limit: 10, windowSeconds: 3600 },
      invite: { limit: 200, windowSeconds: 3600 },
      certificateMail: { limit: 5, windowSeconds: 86400 },
      paymentLink: { limit: 5, windowSeconds: 86400 },
      posting: { limit: 20, windowSeconds: 60 },
      apiKey: { limit: 6000, windowSeconds: 60 }
    })
  })

  it("reads a JSON object of limits, 0 turning one off", async () => {
    const given = { register: { limit: 2, windowSeconds: 60 }, posting: 0, invite: { limit: 0, windowSeconds: 60 } }
    const exit = await load({ DATA_DIR: "memory", RATE_LIMITS: JSON.stringify(given) })
    if (!Exit.isSuccess(exit)) throw new Error(failure(exit))
    expect(exit.value.options.rateLimits).toEqual(given)
  })

  it("refuses bad values at start-up, one line per problem naming RATE_LIMITS and the fix", async () => {
    expect(failure(await load({ DATA_DIR: "memory", RATE_LIMITS: "{register:" }))).toContain(
      "RATE_LIMITS: is not JSON — set JSON such as"
    )
    const bad = failure(
      await load({
        DATA_DIR: "memory",
        RATE_LIMITS: JSON.stringify({
          registr: { limit: 1, windowSeconds: 60 },
          posting: { limit: -1, windowSeconds: 60 },
          invite: { limit: 5, windowSeconds: 0 },
          register: { limit: 1, windowSeconds: 60, burst: 2 },
          paymentLink: 5
        })
      })
    )
    expect(bad).toContain("RATE_LIMITS: registr is not a limit (known: recovery, verifyEmail, register")
    expect(bad).toContain("RATE_LIMITS: posting.limit must be a whole number, 0 to turn it off")
    expect(bad).toContain("RATE_LIMITS: invite.windowSeconds must be a whole number of seconds")
    expect(bad).toContain("RATE_LIMITS: register.burst is not a setting")
    expect(bad).toContain("RATE_LIMITS: paymentLink must be { limit, windowSeconds } or 0")
    expect(failure(await load({ DATA_DIR: "memory", RATE_LIMITS: "[]" }))).toContain(
      "RATE_LIMITS: must be an object of { name: { limit, windowSeconds } }"
    )
  })

  it("makeRoda refuses bad rateLimits before any request", () => {
    expect(() => startRoda({ rateLimits: { posting: { limit: 1.5, windowSeconds: 60 } } })).toThrow(RodaConfigError)
    expect(() => startRoda({ rateLimits: { posting: { limit: 1.5, windowSeconds: 60 } } })).toThrow(
      "options.rateLimits (RATE_LIMITS): posting.limit must be a whole number"
    )
    expect(() => startRoda({ rateLimits: { webhook: { limit: 1, windowSeconds: 60 } } as never })).toThrow(
      "webhook is not a limit"
    )
  })
})
