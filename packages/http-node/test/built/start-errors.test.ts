import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { runBuiltServer } from "../../../../testing/builtServer"
import { freePort } from "../../../../testing/ports"

/**
 * The built `roda-server` refuses an environment it cannot use with every problem at once: a header
 * line, then one line per problem that starts with the environment variable to change and ends with
 * the fix; and it exits non-zero.
 */
const scratch = mkdtempSync(join(tmpdir(), "roda-start-errors-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const GOOD = {
  DATA_DIR: "memory",
  LOG_LEVEL: "warn"
}

/** The problem lines of a refused start (after "Roda could not start:"), and its exit code. */
const refused = async (env: Record<string, string>) => {
  const run = await runBuiltServer({ ...GOOD, ...env })
  const lines = run.stderr.trim().split("\n")
  expect(lines[0], run.stderr).toBe("Roda could not start:")
  return { code: run.code, lines: lines.slice(1), output: run.stdout + run.stderr }
}

const closedPort = await freePort()
const unreachable = `postgres://ana:hunter2-pw@127.0.0.1:${closedPort}/roda`
const aFile = join(scratch, "a-file")
writeFileSync(aFile, "not a folder")

/** One wrong setting each: the variable its line must start with, and a piece of its text. */
const cases: ReadonlyArray<readonly [string, Record<string, string>, string]> = [
  ["DATABASE_URL", {
    DATABASE_URL: "mysql://ana:hunter2-pw@db/roda",
    JWT_SECRET: "j".repeat(40),
    PAYMENT_GATEWAY: "stripe",
    STRIPE_SECRET_KEY: "sk_test_1",
    STRIPE_WEBHOOK_SECRET: "whsec_1"
  }, "is not a postgres:// URL — set it to postgres://"],
  ["DATABASE_URL", {
    DATABASE_URL: unreachable,
    JWT_SECRET: "j".repeat(40),
    PAYMENT_GATEWAY: "stripe",
    STRIPE_SECRET_KEY: "sk_test_1",
    STRIPE_WEBHOOK_SECRET: "whsec_1"
  }, `cannot connect to PostgreSQL at postgres://ana@127.0.0.1:${closedPort}/roda: connection refused`],
  [
    "JWT_SECRET",
    { JWT_SECRET: "short" },
    "must be at least 32 characters long (it has 5) — set it to 32 or more random characters"
  ],
  [
    "STRIPE_SECRET_KEY",
    { PAYMENT_GATEWAY: "stripe", STRIPE_WEBHOOK_SECRET: "whsec_1" },
    "is required when PAYMENT_GATEWAY is stripe"
  ],
  [
    "STRIPE_WEBHOOK_SECRET",
    { PAYMENT_GATEWAY: "stripe", STRIPE_SECRET_KEY: "sk_test_1" },
    "is required when PAYMENT_GATEWAY is stripe"
  ],
  ["DATA_DIR", { DATA_DIR: aFile }, `${aFile} is a file, not a folder — choose a folder this user may write in`],
  [
    "DATA_DIR",
    { DATA_DIR: join(aFile, "data") },
    `${join(aFile, "data")} cannot be created: ${aFile} is a file, not a folder`
  ],
  [
    "BLOB_URL",
    { BLOB_URL: "ftp://files.example/roda" },
    "is not one of s3://bucket/prefix, file:///absolute/folder or postgres — set BLOB_URL"
  ],
  [
    "TRUST_PROXY",
    { TRUST_PROXY: "yes" },
    `"yes" is not a number of hops, an address, a CIDR`
  ],
  ["TRUST_PROXY", { TRUST_PROXY: "loopback,10.0.0.0/33" }, `"10.0.0.0/33" is not a number of hops`],
  ["PAYMENT_GATEWAY", { PAYMENT_GATEWAY: "paypal" }, "unknown gateway paypal — set it to sandbox or stripe"],
  ["SMTP_URL", { SMTP_URL: "http://mail:hunter2-pw@relay" }, "is not an smtp:// or smtps:// URL"],
  [
    "DATABASE_STATEMENT_TIMEOUT_MS",
    { DATABASE_STATEMENT_TIMEOUT_MS: "30s" },
    "30s is not a whole number of milliseconds"
  ]
]

describe("the built server refuses an environment it cannot use", () => {
  it.each(cases)("%s (case %#): one line naming it and the fix, exit 1", async (variable, env, text) => {
    const { code, lines, output } = await refused(env)
    expect(code).toBe(1)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(new RegExp(`^${variable}: .+ — .+`))
    expect(lines[0]).toContain(text)
    expect(output).not.toContain("hunter2-pw")
  })

  it("reports every problem together, each on its own line", async () => {
    const { code, lines, output } = await refused({
      DATABASE_URL: unreachable,
      JWT_SECRET: "short",
      PAYMENT_GATEWAY: "stripe",
      BLOB_URL: "s3://",
      TRUST_PROXY: "everyone",
      LOG_LEVEL: "loud"
    })
    expect(code).toBe(1)
    expect(lines.map((line) => line.slice(0, line.indexOf(":")))).toEqual([
      "DATABASE_URL",
      "JWT_SECRET",
      "STRIPE_SECRET_KEY",
      "STRIPE_WEBHOOK_SECRET",
      "BLOB_URL",
      "LOG_LEVEL",
      "TRUST_PROXY"
    ])
    expect(lines.every((line) => line.includes(" — "))).toBe(true)
    expect(lines[0]).toContain("connection refused")
    expect(output).not.toContain("hunter2-pw")
  })

  it("accepts the forms BLOB_URL and TRUST_PROXY allow", async () => {
    for (
      const [BLOB_URL, TRUST_PROXY] of [
        ["s3://roda-files/prefix/sub", "false"],
        ["file:///var/lib/roda/blobs", "2"],
        ["postgres", "loopback, private, 203.0.113.7, 10.0.0.0/8, 2001:db8::/32, ::1"]
      ]
    ) {
      // A refused start fails at once; an accepted one gets as far as the short JWT_SECRET only.
      const { lines } = await refused({
        BLOB_URL: BLOB_URL!,
        AWS_REGION: "sa-east-1",
        TRUST_PROXY: TRUST_PROXY!,
        JWT_SECRET: "short"
      })
      expect(lines.map((line) => line.slice(0, line.indexOf(":")))).toEqual(["JWT_SECRET"])
    }
  })
})
