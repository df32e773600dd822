import { afterAll, describe, expect, it } from "vitest"
import { defaultOptions, makeRoda, secret } from "../node/index"
import { client, startRoda, testDatabase } from "./support/harness"
import { spans } from "./support/spans"

const quiet = startRoda()
// No background work in the traced Roda: its jobs' statements would open spans while `quiet` is measured.
const traced = makeRoda({
  database: testDatabase(),
  options: defaultOptions({ jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"), runJobs: false }),
  tracing: true
})
afterAll(() => Promise.all([quiet.dispose(), traced.dispose()]))

describe("request tracing", () => {
  it("opens no server span unless tracing is configured", async () => {
    await client(quiet).get("/api/spaces/modules")
    const off = await spans(() => client(quiet).get("/api/spaces/modules"))
    expect(off.filter((name) => name.startsWith("http.server"))).toEqual([])
    await client(traced).get("/api/spaces/modules")
    const on = await spans(() => client(traced).get("/api/spaces/modules"))
    expect(on.filter((name) => name.startsWith("http.server"))).toEqual(["http.server GET"])
  })

  it("opens no span at all, not even for service calls and SQL statements, unless tracing is on", async () => {
    const body = (email: string) => ({ fullName: "Rastro", email, password: "Secret123" })
    const off = await spans(() => client(quiet).post("/api/auth/register", body("quiet@example.com")))
    expect(off).toEqual([])
    const on = await spans(() => client(traced).post("/api/auth/register", body("traced@example.com")))
    expect(on).toContain("sql.execute")
    // Service calls keep their named spans when tracing is on (platform/traced.ts), and only then.
    expect(on).toEqual(expect.arrayContaining(["Identity.register", "Identity.createAccount"]))
  })
})
