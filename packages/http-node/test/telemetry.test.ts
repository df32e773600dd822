import { defaultOptions, secret } from "@roda/core"
import { ConfigProvider, Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startOtlpCollector } from "../../../testing/otlpCollector"
import { loadConfig } from "../src/config"
import { serve } from "../src/server"

let collector: Awaited<ReturnType<typeof startOtlpCollector>>

beforeAll(async () => {
  collector = await startOtlpCollector()
})

afterAll(() => collector.close())

const spansOf = (bodies: Array<any>) =>
  bodies.flatMap((body) =>
    body.resourceSpans.flatMap((resource: any) =>
      resource.scopeSpans.flatMap((scope: any) =>
        scope.spans.map((span: any) => ({
          name: span.name as string,
          route: span.attributes?.find((a: any) => a.key === "http.route")?.value.stringValue as string | undefined,
          service: resource.resource.attributes.find((a: any) => a.key === "service.name")?.value.stringValue
        }))
      )
    )
  )

describe("OpenTelemetry", () => {
  it("reads OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_SERVICE_NAME; without them nothing is exported", async () => {
    const load = (env: Record<string, string>) =>
      Effect.runPromise(
        loadConfig.pipe(Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
      )
    const off = await load({ DATA_DIR: "memory" })
    expect(off.telemetry).toBeUndefined()
    const on = await load({
      DATA_DIR: "memory",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/",
      OTEL_SERVICE_NAME: "roda-eu"
    })
    expect(on.telemetry).toEqual({ endpoint: "http://collector:4318", serviceName: "roda-eu" })
  })

  it("exports a server span per request, with the statements under it, to the collector", async () => {
    const scope = Effect.runSync(Scope.make())
    const { port } = await Effect.runPromise(
      serve({
        port: 0,
        host: "127.0.0.1",
        database: { _tag: "Embedded", dataDir: "memory" },
        options: defaultOptions({ jwtSecret: secret("a-test-secret-that-is-long-enough-123") }),
        log: { format: "json", level: "error" },
        telemetry: { endpoint: collector.url, serviceName: "roda-test" }
      }, { logSink: () => undefined }).pipe(Scope.extend(scope))
    )
    const reply = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fullName: "Otto Tel", email: "otto@roda.test", password: "Secret123" })
    })
    expect(reply.status).toBe(201)
    expect((await fetch(`http://127.0.0.1:${port}/api/auth/me`)).status).toBe(401)
    // Stopping flushes the exporter's last batch.
    await Effect.runPromise(Scope.close(scope, Exit.void))
    const spans = spansOf(collector.received)
    expect(spans.length).toBeGreaterThan(0)
    expect(spans.every((span) => span.service === "roda-test")).toBe(true)
    expect(spans.map((span) => span.name)).toEqual(
      expect.arrayContaining(["http.server POST", "sql.execute"])
    )
    // The route template, set by the dispatch (app/apiApp.ts) on the server span (a POST's goes to
    // its transaction's span).
    expect(spans.find((span) => span.name === "http.server GET")?.route).toBe("/api/auth/me")
  })
})
