import { defaultOptions, RATE_LIMITS_OFF, secret } from "@roda/core"
import { Effect, Exit, Scope } from "effect"
import { request as httpRequest } from "node:http"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { serve } from "../src/server"

/**
 * Issue 11, item 5: a client that leaves interrupts its handler, and stopping the server waits for
 * the handlers in flight before the database is closed. Runs on PostgreSQL when DATABASE_URL is
 * set (where a late handler meets "Cannot use a pool after calling end on the pool"), on in-memory
 * PGlite otherwise.
 */
const database = () =>
  process.env.DATABASE_URL
    ? { _tag: "Postgres" as const, url: secret(process.env.DATABASE_URL) }
    : { _tag: "Embedded" as const, dataDir: "memory" as const }

const PASSWORD = "Secret123"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Everything written outside the server's own log: Effect's logger, stray errors, rejections. */
let output: Array<string> = []
const restore: Array<() => void> = []
const capture = (...args: Array<unknown>) => {
  output.push(args.map((arg) => arg instanceof Error ? `${arg.message}\n${arg.stack}` : String(arg)).join(" "))
}

beforeEach(() => {
  output = []
  for (const name of ["log", "info", "warn", "error", "debug"] as const) {
    const original = console[name]
    console[name] = capture
    restore.push(() => {
      console[name] = original
    })
  }
  const onRejection = (reason: unknown) => capture("unhandledRejection", reason)
  const onException = (error: unknown) => capture("uncaughtException", error)
  process.on("unhandledRejection", onRejection)
  process.on("uncaughtException", onException)
  restore.push(() => {
    process.off("unhandledRejection", onRejection)
    process.off("uncaughtException", onException)
  })
})

afterEach(() => {
  restore.splice(0).forEach((undo) => undo())
})

interface Answer {
  readonly status: number
  readonly body: string
  /** When the answer was complete (`performance.now()`). */
  readonly at: number
}

/**
 * One POST: `/api/auth/register` hashes the password on the thread pool in its request's
 * transaction; `/api/auth/login` runs outside one, so its SQL after the hash asks the pool anew.
 */
const post = (port: number, path: "/api/auth/register" | "/api/auth/login", email: string) => {
  let abandoned = false
  const body = JSON.stringify(
    path === "/api/auth/register"
      ? { fullName: "Sam Shutdown", email, password: PASSWORD }
      : { email, password: PASSWORD }
  )
  let req!: ReturnType<typeof httpRequest>
  const answer = new Promise<Answer | "abandoned">((resolve, reject) => {
    req = httpRequest({
      host: "127.0.0.1",
      port,
      path,
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) }
    }, (res) => {
      const parts: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => parts.push(chunk))
      res.on(
        "end",
        () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString("utf8"), at: performance.now() })
      )
      res.on("error", (error) => abandoned ? resolve("abandoned") : reject(error))
    })
    req.on("error", (error) => abandoned ? resolve("abandoned") : reject(error))
    req.end(body)
  })
  /** The client leaves: its socket is destroyed before any answer. */
  const abandon = () => {
    abandoned = true
    req.destroy()
  }
  return { answer, abandon }
}

describe("shutdown under load", () => {
  it("interrupts abandoned requests, finishes the others, then closes the database without errors", async () => {
    const logged: Array<string> = []
    const scope = Effect.runSync(Scope.make())
    const { inFlight, port } = await Effect.runPromise(
      serve({
        port: 0,
        host: "127.0.0.1",
        database: database(),
        options: defaultOptions({
          jwtSecret: secret("a-test-secret-that-is-long-enough-123"),
          loginAttemptsPerAccount: 1000,
          loginAttemptsPerAccountGlobal: 1000,
          loginAttemptsPerAddress: 1000,
          // twenty-six sign-ups from one address: not a test of the limits on abuse
          rateLimits: RATE_LIMITS_OFF
        }),
        log: { format: "json", level: "info" }
      }, { logSink: (chunk) => logged.push(chunk) }).pipe(Scope.extend(scope))
    )
    // A warm server (the first request builds the API, a long block of the event loop), and an
    // account to sign in to.
    const run = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
    const account = `left-${run}@roda.test`
    const made = await post(port, "/api/auth/register", account).answer
    expect(made).toMatchObject({ status: 201 })

    // Twenty-five sign-ups to answer, then twenty-five sign-ins whose clients leave while they wait
    // behind the first ones for the password hashing threads (a load generator stopped, say).
    const kept = Array.from({ length: 25 }, (_, i) => post(port, "/api/auth/register", `kept-${run}-${i}@roda.test`))
    const left = Array.from({ length: 25 }, () => post(port, "/api/auth/login", account))
    let answeredSoFar = 0
    ;[...kept, ...left].forEach((call) => call.answer.then(() => answeredSoFar++, () => answeredSoFar++))
    // Every request has reached a handler (none is left in the accept queue, which closing the
    // listening socket would refuse).
    const deadline = Date.now() + 20_000
    while (inFlight() + answeredSoFar < 50 && Date.now() < deadline) await sleep(5)
    expect(inFlight() + answeredSoFar).toBe(50)

    let keptAnswered = 0
    kept.forEach((call) => call.answer.then(() => keptAnswered++, () => keptAnswered++))
    left.forEach((call) => call.abandon())
    // The abandoned sign-ins are interrupted at once, not after their turn on the hashing threads.
    const leftBy = Date.now() + 250
    while (inFlight() > 25 - keptAnswered && Date.now() < leftBy) await sleep(5)
    expect(inFlight()).toBeLessThanOrEqual(25 - keptAnswered)
    const stopAt = performance.now()
    const stopped = Effect.runPromise(Scope.close(scope, Exit.void))
    const answers = await Promise.all(kept.map((call) => call.answer))
    // Sign-ins answered before their clients left are fine; the others must not outlive the stop.
    await Promise.all(left.map((call) => call.answer))
    await stopped
    // A handler the stop did not wait for would reach the closed database about now.
    await sleep(1500)

    for (const answer of answers) {
      expect(answer).not.toBe("abandoned")
      if (answer === "abandoned") continue
      expect(answer.status).toBe(201)
      expect(JSON.parse(answer.body)).toMatchObject({ success: true, data: { email: expect.any(String) } })
    }
    // The stop waited for requests still in flight when it began.
    expect(answers.filter((answer) => answer !== "abandoned" && answer.at > stopAt).length).toBeGreaterThan(0)
    const lines = logged.join("").split("\n").filter(Boolean).map((line) => JSON.parse(line))
    expect(lines.filter((line) => line.level !== "info")).toEqual([])
    expect(output.join("\n")).not.toMatch(/pool after calling end/i)
    expect(output).toEqual([])
  })
})
