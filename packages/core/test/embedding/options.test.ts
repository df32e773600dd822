import { describe, expect, it } from "vitest"
import { defaultOptions, makeRoda, RodaConfigError, secret } from "../../node/index"
import { makeRoda as makeRodaWithoutPlatform, servicesLayer as servicesWithoutPlatform } from "../../src/index"

const jwtSecret = secret("a-test-secret-that-is-long-enough-123")
const memory = { _tag: "Embedded", dataDir: "memory" } as const

describe("makeRoda validates its options itself", () => {
  it("refuses a jwtSecret shorter than 32 characters, synchronously", () => {
    const make = () => makeRoda({ database: memory, options: defaultOptions({ jwtSecret: secret("short") }) })
    expect(make).toThrow(RodaConfigError)
    expect(make).toThrow("options.jwtSecret must be at least 32 characters long (it has 5)")
  })

  it("names every problem at once: base URL, CORS origins, mail sender, database URL", () => {
    const make = () =>
      makeRoda({
        database: { _tag: "Postgres", url: secret("mysql://nope") },
        options: defaultOptions({
          jwtSecret,
          publicBaseUrl: "community.example",
          corsOrigins: ["*"],
          mailFrom: "not an address"
        })
      })
    expect(make).toThrow(/database\.url must be a postgres:\/\/ URL/)
    expect(make).toThrow(/options\.publicBaseUrl must be an absolute URL/)
    expect(make).toThrow(/options\.corsOrigins: \* is not an origin/)
    expect(make).toThrow(/options\.mailFrom must be an address/)
  })

  it("refuses a trustProxy it cannot read, naming TRUST_PROXY", () => {
    for (const trustProxy of [true, -2, "everyone", ["10.0.0.0/8", "nope"]]) {
      const make = () => makeRoda({ database: memory, options: defaultOptions({ jwtSecret, trustProxy }) })
      expect(make).toThrow(RodaConfigError)
      expect(make).toThrow(/options\.trustProxy \(TRUST_PROXY\): /)
    }
  })

  it("refuses to start without a platform, and names the Node import that brings one", () => {
    const config = { database: memory, options: defaultOptions({ jwtSecret }) }
    expect(() => makeRodaWithoutPlatform(config)).toThrow(RodaConfigError)
    expect(() => makeRodaWithoutPlatform(config)).toThrow(
      /platform is missing: on Node, import makeRoda .* "@roda\/core\/node"/
    )
    expect(() => servicesWithoutPlatform(config)).toThrow(RodaConfigError)
  })
})

describe("makeRoda options", () => {
  it("docs: false answers 404 for the OpenAPI document and the docs page; the default serves both", async () => {
    const off = makeRoda({ database: memory, options: defaultOptions({ jwtSecret, docs: false }) })
    const on = makeRoda({ database: memory, options: defaultOptions({ jwtSecret }) })
    try {
      for (const path of ["/api/openapi.json", "/api/docs"]) {
        const hidden = await off.handler(new Request(`http://localhost${path}`))
        expect(hidden.status).toBe(404)
        expect((await hidden.json()).success).toBe(false)
        expect((await on.handler(new Request(`http://localhost${path}`))).status).toBe(200)
      }
      // The API itself is still there.
      expect((await off.handler(new Request("http://localhost/api/auth/me"))).status).toBe(401)
    } finally {
      await Promise.all([off.dispose(), on.dispose()])
    }
  })

  it("corsOrigins: the allowed origin is reflected, another is not", async () => {
    const roda = makeRoda({
      database: memory,
      options: defaultOptions({ jwtSecret, corsOrigins: ["https://app.example"] })
    })
    try {
      const ask = (origin: string) =>
        roda.handler(
          new Request("http://localhost/api/auth/login", {
            method: "OPTIONS",
            headers: { origin, "access-control-request-method": "POST" }
          })
        )
      expect((await ask("https://app.example")).headers.get("access-control-allow-origin")).toBe("https://app.example")
      expect((await ask("https://evil.example")).headers.get("access-control-allow-origin")).toBeNull()
    } finally {
      await roda.dispose()
    }
  })
})
