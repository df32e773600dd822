import {
  FileSystem,
  HttpApp,
  HttpIncomingMessage,
  HttpRouter,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { NodeContext } from "@effect/platform-node"
import { Cause, Deferred, Effect, Layer, ManagedRuntime, Option, Stream } from "effect"
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Readable } from "node:stream"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeAppHandler } from "../src/appHandler"

const BIG = 5 * 1024 * 1024
const interrupted = Effect.runSync(Deferred.make<void>())
const failures: Array<Cause.Cause<unknown>> = []
const finalized: Array<string> = []
/** When each request's fiber was reported ended (`makeAppHandler`'s `ended`), by path. */
const endedAt = new Map<string, number>()

const app = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/json",
    Effect.zipRight(
      HttpApp.appendPreResponseHandler((_request, response) =>
        Effect.succeed(HttpServerResponse.setHeader(response, "x-pre-response", "applied"))
      ),
      HttpServerResponse.json({ hello: "world" }).pipe(
        Effect.flatMap(HttpServerResponse.setCookie("session", "abc", { httpOnly: true }))
      )
    )
  ),
  HttpRouter.get(
    "/stream",
    Effect.succeed(
      HttpServerResponse.stream(
        Stream.range(1, BIG / 1024).pipe(Stream.map(() => new Uint8Array(1024).fill(97))),
        { contentType: "text/plain" }
      )
    )
  ),
  HttpRouter.get(
    "/readable",
    Effect.succeed(HttpServerResponse.raw(Readable.from([Buffer.from("one,"), Buffer.from("two")]), { status: 200 }))
  ),
  HttpRouter.post(
    "/echo",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const parsed = yield* request.json
      const again = yield* request.modify({ url: "/elsewhere" }).text
      return yield* HttpServerResponse.json({ parsed, again })
    })
  ),
  HttpRouter.post(
    "/together",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      // Two fibers wait for the same body while it is still arriving.
      const [text, parsed] = yield* Effect.all([request.text, request.json], { concurrency: 2 })
      return yield* HttpServerResponse.json({ text, parsed })
    })
  ),
  HttpRouter.post(
    "/limited",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const first = yield* Effect.either(
        HttpIncomingMessage.withMaxBodySize(request.text, Option.some(FileSystem.Size(16)))
      )
      const second = yield* Effect.either(request.text)
      const json = yield* Effect.either(request.json)
      return yield* HttpServerResponse.json({
        first: first._tag === "Left" ? String(first.left.cause) : first.right,
        second: second._tag === "Left" ? "refused again" : second.right,
        json: json._tag === "Left" ? json.left.reason : json.right
      })
    })
  ),
  HttpRouter.post(
    "/upload",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const form = yield* request.multipart
      const file = (form["file"] as ReadonlyArray<{ readonly name: string; readonly path: string }>)[0]!
      return yield* HttpServerResponse.json({ note: form["note"], name: file.name })
    })
  ),
  HttpRouter.get(
    "/forever",
    Effect.never.pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined)))
  ),
  HttpRouter.get("/defect", Effect.die("boom")),
  HttpRouter.get(
    "/slow-finalizer",
    Effect.zipRight(
      Effect.addFinalizer(() => Effect.zipRight(Effect.sleep("150 millis"), Effect.sync(() => finalized.push("slow")))),
      HttpServerResponse.text("sent first")
    )
  ),
  HttpRouter.get(
    "/finalizer",
    Effect.zipRight(
      Effect.addFinalizer((exit) => Effect.sync(() => finalized.push(exit._tag))),
      HttpServerResponse.text("done")
    )
  ),
  Effect.catchTag("RouteNotFound", () => HttpServerResponse.empty({ status: 404 }))
)

const runtime = ManagedRuntime.make(NodeContext.layer.pipe(Layer.merge(Layer.setTracerEnabled(false))))
let server: Server
let base = ""

beforeAll(async () => {
  const handler = makeAppHandler(app, await runtime.runtime(), { onFailure: (cause) => failures.push(cause) })
  server = createServer((req, res) => handler(req, res, () => endedAt.set(req.url ?? "", Date.now())))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  await runtime.dispose()
})

describe("makeAppHandler", () => {
  it("writes a JSON answer with its cookies, after the pre-response handlers", async () => {
    const response = await fetch(`${base}/json`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ hello: "world" })
    expect(response.headers.get("x-pre-response")).toBe("applied")
    expect(response.headers.getSetCookie()).toEqual(["session=abc; HttpOnly"])
  })

  it("streams a large body through the socket's backpressure", async () => {
    const response = await fetch(`${base}/stream`)
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(bytes.byteLength).toBe(BIG)
    expect(bytes.every((byte) => byte === 97)).toBe(true)
  })

  it("pipes a Node readable body", async () => {
    expect(await (await fetch(`${base}/readable`)).text()).toBe("one,two")
  })

  it("answers HEAD with the headers and no body", async () => {
    const response = await fetch(`${base}/json`, { method: "HEAD" })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(await response.text()).toBe("")
  })

  it("reads the body once: json, then text from a modified request, agree", async () => {
    const response = await fetch(`${base}/echo`, { method: "POST", body: JSON.stringify({ a: [1, 2] }) })
    expect(await response.json()).toEqual({ parsed: { a: [1, 2] }, again: "{\"a\":[1,2]}" })
  })

  it("gives the body to readers waiting together, as text and as JSON", async () => {
    const chunks = [Buffer.from("{\"a\":"), Buffer.from("[1,2]}")]
    const slow = Readable.from((async function*() {
      for (const chunk of chunks) {
        await new Promise((resolve) => setTimeout(resolve, 30))
        yield chunk
      }
    })())
    const response = await fetch(`${base}/together`, {
      method: "POST",
      body: Readable.toWeb(slow) as ReadableStream,
      duplex: "half"
    } as RequestInit)
    expect(await response.json()).toEqual({ text: "{\"a\":[1,2]}", parsed: { a: [1, 2] } })
  })

  it("refuses a body over the reader's limit, and keeps refusing it", async () => {
    const response = await fetch(`${base}/limited`, { method: "POST", body: "x".repeat(64) })
    expect(await response.json()).toEqual({
      first: "Error: maxBytes exceeded",
      second: "refused again",
      json: "Decode"
    })
    const small = await fetch(`${base}/limited`, { method: "POST", body: "{\"b\":1}" })
    expect(await small.json()).toEqual({ first: "{\"b\":1}", second: "{\"b\":1}", json: { b: 1 } })
  })

  it("parses a multipart upload", async () => {
    const form = new FormData()
    form.set("note", "hello")
    form.set("file", new Blob([new Uint8Array(2048)]), "picture.png")
    const response = await fetch(`${base}/upload`, { method: "POST", body: form })
    expect(await response.json()).toEqual({ note: "hello", name: "picture.png" })
  })

  it("interrupts the handler when the client leaves", async () => {
    await new Promise<void>((resolve) => {
      const request = httpRequest(`${base}/forever`)
      request.on("error", () => resolve())
      request.end()
      setTimeout(() => request.destroy(), 100)
    })
    await Effect.runPromise(Deferred.await(interrupted).pipe(Effect.timeout("5 seconds")))
  })

  it("closes the request's scope once the answer is written, running what was added to it", async () => {
    expect(await (await fetch(`${base}/finalizer`)).text()).toBe("done")
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(finalized).toEqual(["Success"])
  })

  it("reports the request's end once its fiber has ended, after the answer and the scope's finalizers", async () => {
    const response = await fetch(`${base}/slow-finalizer`)
    expect(await response.text()).toBe("sent first")
    const answeredAt = Date.now()
    expect(endedAt.has("/slow-finalizer")).toBe(false)
    const deadline = answeredAt + 5_000
    while (!endedAt.has("/slow-finalizer") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    expect(finalized).toContain("slow")
    expect(endedAt.get("/slow-finalizer")! - answeredAt).toBeGreaterThanOrEqual(100)
  })

  it("answers a defect with the 500 envelope and reports it", async () => {
    const response = await fetch(`${base}/defect`)
    expect(response.status).toBe(500)
    expect(await response.json()).toEqual({ success: false, code: "internal_error", message: "Internal server error." })
    expect(failures.some((cause) => Cause.pretty(cause).includes("boom"))).toBe(true)
  })
})
