import type { AnswerAtOnce } from "@roda/core"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeAppHandler } from "../src/appHandler"
import { type Served, serveEmbedded } from "./serveEmbedded"

// The Node server answers a constant route's requests without running the app (`answerAtOnce`);
// every such answer must be the app's own: compared here, request by request, with a server that
// runs the app for every request.
const COMMUNITY = "0193c2a4-5b6e-7d8f-9a0b-1c2d3e4f5a6b"
const ALLOWED_ORIGIN = "https://app.example"
let atOnceBase = ""
let appBase = ""
let answerAtOnce: AnswerAtOnce
let roda: Served["roda"]
let close: () => Promise<void>
let appServer: Server

beforeAll(async () => {
  const served = await serveEmbedded(ALLOWED_ORIGIN)
  atOnceBase = served.base
  roda = served.roda
  close = served.close
  const built = await roda.httpApp()
  answerAtOnce = built.answerAtOnce
  const handler = makeAppHandler(built.app, built.runtime)
  appServer = createServer((req, res) => handler(req, res))
  await new Promise<void>((resolve) => appServer.listen(0, "127.0.0.1", resolve))
  appBase = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => appServer.close(resolve))
  await close()
})

const MODULES = "/api/spaces/modules"
const community = { "x-communityid": COMMUNITY }

interface Probe {
  readonly name: string
  readonly method?: string
  readonly path?: string
  readonly headers?: Record<string, string>
  /** Whether the answer is given without running the app. */
  readonly atOnce: boolean
}

const probes: ReadonlyArray<Probe> = [
  { name: "anonymous visitor", headers: community, atOnce: true },
  { name: "a query the route does not read", path: `${MODULES}?page=2`, headers: community, atOnce: true },
  { name: "English", headers: { ...community, "accept-language": "en-US,en;q=0.9" }, atOnce: true },
  { name: "Portuguese preferred by q", headers: { ...community, "accept-language": "en;q=0.2, pt-BR" }, atOnce: true },
  { name: "an allowed origin", headers: { ...community, origin: ALLOWED_ORIGIN }, atOnce: true },
  { name: "another origin", headers: { ...community, origin: "https://evil.example" }, atOnce: true },
  { name: "a blank Authorization", headers: { ...community, authorization: "  " }, atOnce: true },
  {
    name: "the community header in capitals, with spaces",
    headers: { "x-communityid": ` ${COMMUNITY.toUpperCase()} ` },
    atOnce: true
  },
  { name: "an X-ProfileId without a token", headers: { ...community, "x-profileid": "nobody" }, atOnce: true },
  { name: "no community header", atOnce: false },
  { name: "a community header that is no id", headers: { "x-communityid": "not-an-id" }, atOnce: false },
  { name: "a token that does not verify", headers: { ...community, authorization: "Bearer nope" }, atOnce: false },
  { name: "a malformed Authorization", headers: { ...community, authorization: "Basic abc" }, atOnce: false },
  { name: "an escaped NUL in the query", path: `${MODULES}?x=%00`, headers: community, atOnce: false },
  { name: "a trailing slash", path: `${MODULES}/`, headers: community, atOnce: false },
  { name: "HEAD", method: "HEAD", headers: community, atOnce: false },
  { name: "POST", method: "POST", headers: community, atOnce: false },
  { name: "a route that is not constant", path: "/api/spaces", headers: community, atOnce: false }
]

const ignored = new Set(["x-request-id", "date", "connection", "keep-alive"])
const headersOf = (response: Response) =>
  Object.fromEntries([...response.headers.entries()].filter(([name]) => !ignored.has(name)))

const init = (probe: Probe) => ({ method: probe.method ?? "GET", headers: probe.headers ?? {} })
const read = async (response: Response) => ({
  status: response.status,
  headers: headersOf(response),
  body: await response.text()
})
const send = async (base: string, probe: Probe) => read(await fetch(`${base}${probe.path ?? MODULES}`, init(probe)))
/** Through the web handler (`roda.handler`), which answers the same requests at once in its own fiber. */
const sendWeb = async (probe: Probe) =>
  read(await roda.handler(new Request(`http://roda.test${probe.path ?? MODULES}`, init(probe))))

describe("answers given without running the app", () => {
  for (const probe of probes) {
    it(`${probe.name}: ${probe.atOnce ? "at once" : "left to the app"}, and the app's answer`, async () => {
      const given = answerAtOnce({
        method: probe.method ?? "GET",
        url: probe.path ?? MODULES,
        headers: probe.headers ?? {}
      })
      expect(given !== undefined).toBe(probe.atOnce)
      const [fromServer, fromApp] = await Promise.all([send(atOnceBase, probe), send(appBase, probe)])
      expect(fromServer).toEqual(fromApp)
      const fromWeb = await sendWeb(probe)
      // Node's server counts the length of every answer, and leaves out the body of one to HEAD.
      const { "content-length": _app, ...appHeaders } = fromApp.headers
      const { "content-length": _web, ...webHeaders } = fromWeb.headers
      expect(fromWeb.status).toBe(fromApp.status)
      expect(webHeaders).toEqual(appHeaders)
      if (probe.method !== "HEAD") expect(fromWeb.body).toBe(fromApp.body)
    })
  }

  it("answers the catalogue in each language, as the app does", async () => {
    const pt = await send(atOnceBase, { name: "pt", headers: community, atOnce: true })
    const en = await send(atOnceBase, { name: "en", headers: { ...community, "accept-language": "en" }, atOnce: true })
    expect(pt.status).toBe(200)
    expect(JSON.parse(pt.body).message).not.toBe(JSON.parse(en.body).message)
    expect(JSON.parse(en.body).data.length).toBeGreaterThan(0)
  })
})
