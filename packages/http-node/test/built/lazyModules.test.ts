import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BuiltServer, startBuiltServer } from "../../../../testing/builtServer"
import { startOtlpCollector } from "../../../../testing/otlpCollector"
import { NO_PDFTOTEXT, skipWhen } from "../../../../testing/skips"
import { startSmtp, textOf } from "../../../../testing/smtp"
import { activeTemplate, certificateCommunity, decodePng, issueAndWait } from "../../../core/test/certificates/support"
import { signStripe, STRIPE_TEST_WEBHOOK_SECRET, stripeEvent } from "../../../core/test/stripe/support/fakeStripe"
import { as } from "../../../core/test/support/community"
import type { Client } from "../../../core/test/support/harness"
import { connectMcpClient } from "../../../core/test/support/oauth"
import { overBuilt } from "./overBuilt"
import { qrModulesOfPdf, qrModulesOfUrl } from "./pdfPaths"

const WORKER_THREADS = fileURLToPath(new URL("../../../../testing/workerThreads.mjs", import.meta.url))

/**
 * Every module the built `roda-server` loads on demand rather than at start, each loaded once by a run
 * of dist/ (a dynamic import is a chunk of its own, or a package the binary loads rather than carries:
 * tsup.config.ts's `loaded`), with what it makes checked:
 *   - the certificate PDF (pdf-lib, fontkit, the @fontsource files, qrcode) and PNG (satori, resvg),
 *     rendered by the server's job worker, and their QR code;
 *   - nodemailer, delivering the certificate's e-mail, whose link opens the verification page;
 *   - the docs page (`@effect/platform`'s HttpApiScalar) and `@roda/mcp` on the first `/mcp` request;
 *   - on a second server: the PGlite worker thread (an embedded data folder, whatever the run's
 *     database), the Stripe SDK (`PAYMENT_GATEWAY=stripe`: it checks the webhook signatures) and
 *     `@effect/opentelemetry` (`OTEL_EXPORTER_OTLP_ENDPOINT`).
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>
let server: BuiltServer
let api: Client
let setup: Awaited<ReturnType<typeof certificateCommunity>>
let certificate: { id: string; code: string }

beforeAll(async () => {
  smtp = await startSmtp()
  server = await startBuiltServer({ SMTP_URL: smtp.url })
  api = overBuilt(server, smtp)
  setup = await certificateCommunity(api, "Lazy")
  const template = await activeTemplate(api, setup)
  const { batch, certificates } = await issueAndWait(api, setup, template.id, [setup.ana.profileId])
  expect(batch).toMatchObject({ status: "completed", issued: 1 })
  certificate = certificates[0]
}, 180_000)

afterAll(async () => {
  await server?.stop()
  await smtp?.close()
})

const bytesOf = async (reply: Response) => Buffer.from(await reply.arrayBuffer())

/** The file a signed link (302 from the API) points at. */
const followRedirect = async (reply: { status: number; headers: Headers }) => {
  expect(reply.status).toBe(302)
  const location = new URL(reply.headers.get("location")!)
  expect(location.origin).toBe(server.base)
  return fetch(location)
}

describe("the built server's lazily loaded modules", () => {
  it("renders the certificate PDF with the recipient's name, its code and the QR code of its page", async () => {
    const file = await followRedirect(await api.get(`/api/certificates/${certificate.id}/pdf`, setup.owner()))
    expect(file.headers.get("content-type")).toBe("application/pdf")
    const pdf = await bytesOf(file)
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-")
    expect(qrModulesOfPdf(pdf)).toEqual(qrModulesOfUrl(`${server.base}/certificates/${certificate.code}`))
  })

  skipWhen(NO_PDFTOTEXT).it("writes the PDF's text so that a reader finds the name and the code", async () => {
    const file = await followRedirect(await api.get(`/api/certificates/${certificate.id}/pdf`, setup.owner()))
    const dir = mkdtempSync(join(tmpdir(), "roda-built-pdf-"))
    try {
      writeFileSync(join(dir, "certificate.pdf"), await bytesOf(file))
      const text = execFileSync("pdftotext", [join(dir, "certificate.pdf"), "-"], { encoding: "utf8" })
      expect(text).toContain("Ana Aprendiz")
      expect(text).toContain(certificate.code)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("renders the certificate's card and page as PNGs", async () => {
    const card = await fetch(`${server.base}/certificates/${certificate.code}/image.png`)
    expect(card.headers.get("content-type")).toBe("image/png")
    expect(await decodePng(await bytesOf(card))).toMatchObject({ width: 1200, height: 630 })
    const page = await followRedirect(
      await api.get(`/api/certificates/${certificate.id}/image?variant=page`, as(setup.ana, setup.community))
    )
    const decoded = await decodePng(await bytesOf(page))
    expect(decoded.width).toBeGreaterThan(decoded.height) // the template is landscape
  })

  it("e-mails the certificate over SMTP; its link opens the verification page", async () => {
    const certificateLink = /http:\/\/127\.0\.0\.1:\d+\/certificates\/[0-9A-Z-]+/
    const link = certificateLink.exec(textOf(await smtp.mailTo(setup.ana.email, certificateLink)))![0]
    expect(link).toBe(`${server.base}/certificates/${certificate.code}`)
    const page = await fetch(link)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    expect(await page.text()).toContain("Ana Aprendiz")
  })

  it("serves the docs page with Scalar's script inlined", async () => {
    const reply = await fetch(`${server.base}/api/docs`)
    expect(reply.status).toBe(200)
    expect(reply.headers.get("content-type")).toMatch(/^text\/html/)
    const html = await reply.text()
    expect(html).toContain("openapi.json")
    expect(html.length).toBeGreaterThan(1_000_000) // the API reference's script, not a link to a CDN
  })

  it("loads @roda/mcp on the first /mcp request and answers an MCP client's initialize", async () => {
    const connection = await connectMcpClient(api, setup.ownerUser, setup.community.id)
    const reply = await fetch(`${server.base}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${connection.accessToken}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream"
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "built", version: "1" } }
      })
    })
    expect(reply.status).toBe(200)
    const text = await reply.text()
    const message = JSON.parse(text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)![1]!)
    expect(message.result.serverInfo.name).toMatch(/roda/i)
    expect(server.output()).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/)
  })
})

describe("a built server with Stripe and OpenTelemetry, on an embedded data folder", () => {
  let collector: Awaited<ReturnType<typeof startOtlpCollector>>
  let stripeServer: BuiltServer

  beforeAll(async () => {
    collector = await startOtlpCollector()
    stripeServer = await startBuiltServer({
      PAYMENT_GATEWAY: "stripe",
      STRIPE_SECRET_KEY: "sk_test_roda_built_server",
      STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_SERVICE_NAME: "roda-built",
      NODE_OPTIONS: `--import=${WORKER_THREADS}`
    }, { embedded: true })
  }, 120_000)

  afterAll(async () => {
    await stripeServer?.stop()
    await collector?.close()
  })

  it("opens the embedded database in the PGlite worker thread", async () => {
    // Not PGlite on the main thread, the fallback of a bundle that lacks the worker's script.
    expect(stripeServer.output()).toContain(`worker thread started: dataDir=${join(stripeServer.dataDir!, "pg")}`)
    const registered = await fetch(`${stripeServer.base}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fullName: "Wanda Worker", email: "wanda@roda.test", password: "Secret123" })
    })
    expect(registered.status).toBe(201)
  })

  it("checks Stripe webhook signatures with the SDK", async () => {
    const event = stripeEvent("payment_intent.succeeded", {
      id: "pi_not_rodas",
      object: "payment_intent",
      status: "succeeded",
      metadata: {}
    })
    const raw = JSON.stringify(event)
    const post = (signature: string) =>
      fetch(`${stripeServer.base}/api/checkout/webhooks/stripe`, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": signature },
        body: raw
      })
    const acknowledged = await post(signStripe(raw))
    expect(acknowledged.status).toBe(200)
    const forged = await post(signStripe(raw, { secret: "whsec_another_endpoint" }))
    expect(forged.status).toBe(400)
    expect((await forged.json()).message).toBe("Webhook inválido.")
  })

  it("exports the requests' spans to the OTLP collector (flushed when it stops)", async () => {
    expect((await fetch(`${stripeServer.base}/api/auth/me`)).status).toBe(401)
    // A request's span ends just after its answer is written: a second request gives the first one
    // time to end before SIGTERM (on a busy machine the signal could otherwise come first).
    expect((await fetch(`${stripeServer.base}/api/auth/me`)).status).toBe(401)
    await stripeServer.stop()
    const services = collector.received.flatMap((body) =>
      body.resourceSpans.map((resource: any) =>
        resource.resource.attributes.find((a: any) => a.key === "service.name")?.value.stringValue
      )
    )
    expect(services).toContain("roda-built")
    expect(stripeServer.output()).not.toMatch(/Cannot find module|ERR_MODULE_NOT_FOUND/)
  })
})
