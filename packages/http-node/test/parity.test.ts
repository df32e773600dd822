import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Served, serveEmbedded } from "./serveEmbedded"

// The Node server serves Roda's HttpApp directly; embedders call `roda.handler` with a web Request.
// Both must answer every request alike: same status, same body, same headers that matter.
let base = ""
let roda: Served["roda"]
let close: () => Promise<void>

beforeAll(async () => {
  const served = await serveEmbedded("https://app.example")
  base = served.base
  roda = served.roda
  close = served.close
})

afterAll(() => close())

interface Probe {
  readonly name: string
  readonly method: string
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string | (() => string)
}

const deep = (levels: number) => "[".repeat(levels) + "]".repeat(levels)
let n = 0
const fresh = () => `parity${++n}-${Date.now()}@roda.test`

const probes = (): ReadonlyArray<Probe> => [
  { name: "static route", method: "GET", path: "/api/spaces/modules" },
  { name: "unknown route", method: "GET", path: "/api/nothing-here" },
  { name: "NUL in the URL", method: "GET", path: "/api/spaces/modules?x=%00" },
  {
    name: "NUL in a JSON body",
    method: "POST",
    path: "/api/auth/login",
    body: `{"email":"a\\u0000@b.c","password":"x"}`
  },
  { name: "JSON nested too deep", method: "POST", path: "/api/auth/login", body: `{"email":${deep(3000)}}` },
  { name: "JSON nested at the limit", method: "POST", path: "/api/auth/login", body: `{"email":${deep(63)}}` },
  { name: "broken JSON", method: "POST", path: "/api/auth/login", body: `{"email":` },
  { name: "empty body", method: "POST", path: "/api/auth/login", body: "" },
  {
    name: "a field the route does not declare",
    method: "POST",
    path: "/api/auth/login",
    body: `{"email":"a@b.c","password":"x","admin":true}`
  },
  {
    name: "register",
    method: "POST",
    path: "/api/auth/register",
    body: () => JSON.stringify({ fullName: "Pa Rity", email: fresh(), password: "Secret123" })
  },
  { name: "bad token", method: "GET", path: "/api/auth/me", headers: { authorization: "Bearer nope" } },
  { name: "member route without community", method: "GET", path: "/api/feed" },
  {
    name: "CORS preflight",
    method: "OPTIONS",
    path: "/api/auth/login",
    headers: { origin: "https://app.example", "access-control-request-method": "POST" }
  },
  { name: "Accept-Language", method: "GET", path: "/api/auth/me", headers: { "accept-language": "pt-BR" } }
]

const headersThatMatter = (headers: Headers) =>
  Object.fromEntries(
    [...headers.entries()].filter(([name]) =>
      name.startsWith("access-control-") || name === "content-type" || name === "vary" || name === "retry-after"
    )
  )

const normalise = (text: string) =>
  text.replace(/parity\d+-\d+@roda\.test/g, "<email>").replace(/"id":"[^"]+"/g, "\"id\":\"<id>\"")
    .replace(/"createdAt":"[^"]+"/g, "\"createdAt\":\"<t>\"").replace(/"token":"[^"]+"/g, "\"token\":\"<jwt>\"")

describe("the Node server and the web handler answer alike", () => {
  for (const probe of probes()) {
    it(probe.name, async () => {
      const init = () => ({
        method: probe.method,
        headers: { ...(probe.body !== undefined ? { "content-type": "application/json" } : {}), ...probe.headers },
        ...(probe.body !== undefined ? { body: typeof probe.body === "function" ? probe.body() : probe.body } : {})
      })
      const overSocket = await fetch(`${base}${probe.path}`, init())
      const viaWeb = await roda.handler(new Request(`http://roda.test${probe.path}`, init()))
      const [socketText, webText] = [await overSocket.text(), await viaWeb.text()]
      expect(overSocket.status).toBe(viaWeb.status)
      expect(normalise(socketText)).toBe(normalise(webText.replace(/parity\d+-\d+@roda\.test/g, "<email>")))
      expect(headersThatMatter(overSocket.headers)).toEqual(headersThatMatter(viaWeb.headers))
    })
  }
})
