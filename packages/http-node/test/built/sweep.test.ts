import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { runToEnd } from "../../../../testing/runToEnd"

const SWEEP = fileURLToPath(new URL("../../../../scripts/sweep.mjs", import.meta.url))

/**
 * The outside attacker's pass, short version (issue 52): `scripts/sweep.mjs --quick` starts the built
 * `roda-server` (on this file's database: embedded, or its PostgreSQL database), seeds two communities
 * through the API and sends a sample of every pass. It exits 0 only with no 5xx, no cross-community
 * read and no write by a refused role; its report is printed when it does not.
 */
describe("the black-box sweep, quick", () => {
  it("finds nothing on the built server", async () => {
    const env: Record<string, string> = { PATH: process.env.PATH ?? "" }
    if (process.env.DATABASE_URL !== undefined) env.DATABASE_URL = process.env.DATABASE_URL
    const run = await runToEnd(process.execPath, [SWEEP, "--quick"], env, 170_000)
    const report = `${run.stdout}\n${run.stderr}`
    expect(run.code, report).toBe(0)
    expect(report).toMatch(/findings: 0 /)
    expect(report).toMatch(/requests per pass: \{"cross":\d+,"malformed":\d+,"roles":\d+/)
  }, 180_000)
})
