import { Effect, Logger } from "effect"
import { describe, expect, it } from "vitest"
import { logTo, makeLog } from "../src/log"

const capture = (format: "json" | "pretty", level: "debug" | "info" | "warn" | "error" = "info") => {
  const chunks: Array<string> = []
  const log = makeLog({ format, level }, (chunk) => chunks.push(chunk))
  return { log, chunks, lines: () => chunks.join("").split("\n").filter(Boolean) }
}
const nextTurn = () => new Promise((resolve) => setImmediate(resolve))
const line = { requestId: "req-1", method: "GET", path: "/api/feed", status: 200, durationMs: 3.14159 }

describe("request log", () => {
  it("writes one JSON object per request with id, method, path, status and duration", () => {
    const { log, lines } = capture("json")
    log.request(line)
    log.flush()
    const [only, ...rest] = lines()
    expect(rest).toEqual([])
    const parsed = JSON.parse(only!)
    expect(parsed).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      level: "info",
      msg: "request",
      requestId: "req-1",
      method: "GET",
      path: "/api/feed",
      status: 200,
      durationMs: 3.1
    })
  })

  it("writes a readable line in pretty format", () => {
    const { log, lines } = capture("pretty")
    log.request(line)
    log.write("warn", "slow", { ms: 12 })
    log.request({ ...line, clientAddress: "2001:db8::7" })
    log.flush()
    expect(lines()).toEqual([
      expect.stringMatching(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO GET \/api\/feed 200 3\.1ms req-1$/),
      expect.stringMatching(/^\[[\d:.]+\] WARN slow ms=12$/),
      expect.stringMatching(/^\[[\d:.]+\] INFO GET \/api\/feed 200 3\.1ms req-1 2001:db8::7$/)
    ])
  })

  it("keeps lines at or above LOG_LEVEL; a 5xx is an error", () => {
    const { log, lines } = capture("json", "warn")
    log.request(line)
    log.write("info", "started")
    log.request({ ...line, status: 503 })
    log.write("debug", "detail")
    log.write("error", "boom", { requestId: "req-2" })
    log.flush()
    expect(lines().map((text) => JSON.parse(text)).map(({ level, msg, status }) => ({ level, msg, status }))).toEqual([
      { level: "error", msg: "request", status: 503 },
      { level: "error", msg: "boom", status: undefined }
    ])
    const debug = capture("json", "debug")
    debug.log.write("debug", "detail")
    debug.log.flush()
    expect(debug.lines()).toHaveLength(1)
  })

  it("writes the lines of one turn of the event loop together", async () => {
    const { log, chunks, lines } = capture("json")
    for (let i = 0; i < 3; i++) log.request({ ...line, requestId: `req-${i}` })
    expect(chunks).toEqual([])
    await nextTurn()
    expect(chunks).toHaveLength(1)
    expect(lines().map((text) => JSON.parse(text).requestId)).toEqual(["req-0", "req-1", "req-2"])
  })
})

describe("Roda's own lines", () => {
  it("carry the cause logged with them, and no cause field when there is none", async () => {
    const { log, lines } = capture("json")
    const logger = Logger.replace(Logger.defaultLogger, logTo(log))
    await Effect.runPromise(
      Effect.gen(function*() {
        const failed = yield* Effect.cause(Effect.die(new Error("relation \"accounts\" does not exist")))
        yield* Effect.logError("Unexpected failure", failed)
        yield* Effect.logInfo("migrated")
      }).pipe(Effect.provide(logger))
    )
    log.flush()
    const [failure, info] = lines().map((text) => JSON.parse(text))
    expect(failure).toMatchObject({ level: "error", msg: "Unexpected failure" })
    expect(failure.cause).toContain("relation \"accounts\" does not exist")
    expect(info).toMatchObject({ level: "info", msg: "migrated" })
    expect(info).not.toHaveProperty("cause")
  })
})
