import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, expect } from "vitest"
import { client, startRoda } from "../support/harness"

export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  readonly at: number
}

/**
 * A real HTTP receiver on 127.0.0.1: records each request, answers with `answer(path)`'s status (or
 * never answers, for `"hang"`).
 */
export const startReceiver = async (answer: (path: string) => number | "hang" = () => 200) => {
  const received: Array<Received> = []
  const waiting: Array<() => void> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const path = request.url ?? "/"
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() })
      for (const wake of waiting.splice(0)) wake()
      const status = answer(path)
      if (status !== "hang") response.writeHead(status, { "content-type": "text/plain" }).end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port
  /** Resolves once `count` requests to `path` arrived (fails after `timeoutMs`). */
  const waitFor = async (path: string, count = 1, timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const matching = received.filter((r) => r.path === path)
      if (matching.length >= count) return matching
      if (Date.now() > deadline) throw new Error(`${matching.length} of ${count} requests to ${path} arrived`)
      await new Promise<void>((resolve) => {
        waiting.push(resolve)
        setTimeout(resolve, 200)
      })
    }
  }
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    waitFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/**
 * A Roda that may send webhooks to 127.0.0.1 and a receiver, started and stopped with the file's
 * tests (`receiver()` is the running one).
 */
export const webhookSuite = () => {
  const roda = startRoda({ webhooksAllowPrivate: true })
  let running: Awaited<ReturnType<typeof startReceiver>> | undefined
  beforeAll(async () => {
    running = await startReceiver()
  })
  afterAll(async () => {
    await roda.dispose()
    await running?.close()
  })
  return { roda, api: client(roda), receiver: () => running! }
}

/** The deliveries `requests` as the `standardwebhooks` package verifies them with `secret`, oldest first. */
export const verifiedEvents = (secret: string, requests: ReadonlyArray<Received>) =>
  requests
    .map((request) => new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as any)
    .sort((a, b) => a.timestamp.localeCompare(b.timestamp))

/**
 * Each delivered `data` is what the OpenAPI document's `webhooks[type]` says: every key declared and
 * every required key present (in one of the alternatives, for a union).
 */
export const expectDeclared = async (
  api: ReturnType<typeof client>,
  delivered: ReadonlyArray<{ readonly type: string; readonly data: Record<string, unknown> }>
) => {
  const document = (await api.get("/api/openapi.json")).body
  for (const event of delivered) {
    const body = document.webhooks[event.type].post.requestBody.content["application/json"].schema
    expect(body.properties.type.enum).toEqual([event.type])
    const schema = body.properties.data
    const alternatives: Array<{ properties: Record<string, unknown>; required?: Array<string> }> = schema.anyOf ??
      [schema]
    const keys = Object.keys(event.data)
    const fits = alternatives.some((alternative) =>
      keys.every((key) => key in alternative.properties) &&
      (alternative.required ?? []).every((key) => keys.includes(key))
    )
    expect(fits, `${event.type}: ${keys.join(", ")}`).toBe(true)
  }
}

/** After a pause, still only `count` requests to `path` arrived: a repeat sent nothing. */
export const expectNoMore = async (
  running: { readonly received: ReadonlyArray<Received> },
  path: string,
  count: number,
  pauseMs = 300
) => {
  await new Promise((resolve) => setTimeout(resolve, pauseMs))
  expect(running.received.filter((request) => request.path === path)).toHaveLength(count)
}
