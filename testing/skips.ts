/**
 * Suites and tests that need something a machine or a run may lack (a browser, a PostgreSQL server).
 * Where it is missing they are skipped with the reason in their title, which the run's summary
 * (scripts/test-summary.mjs) prints beside every skipped test's name.
 *
 *   skipWhen(hasChromium ? undefined : "no Chromium at /usr/bin/chromium").describe("…", () => { … })
 */
import { execFileSync } from "node:child_process"
import { existsSync } from "node:fs"
import { describe, it } from "vitest"

/** The title of a test or suite skipped for `reason` (scripts/test-summary.mjs reads it back). */
export const skippedTitle = (name: string, reason: string) => `${name} [skipped: ${reason}]`

type Body = () => void | Promise<void>

export const skipWhen = (reason: string | undefined) => ({
  describe: (name: string, body: () => void) =>
    reason === undefined ? describe(name, body) : describe.skip(skippedTitle(name, reason), body),
  it: (name: string, body: Body, timeout?: number) =>
    reason === undefined ? it(name, body, timeout) : it.skip(skippedTitle(name, reason), body, timeout)
})

/** The reason PostgreSQL-only tests give in the embedded run (the PostgreSQL run covers them). */
export const POSTGRES_ONLY = process.env.DATABASE_URL === undefined
  ? "PostgreSQL only: the run on PostgreSQL (DATABASE_URL) covers it"
  : undefined

/** Debian's Chromium, which the browser tests drive through playwright-core. */
export const CHROMIUM = "/usr/bin/chromium"
export const NO_CHROMIUM = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium)`

const answers = (command: string, args: ReadonlyArray<string>) => {
  try {
    execFileSync(command, args, { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

/** poppler-utils' pdftotext, which reads the text of the PDFs Roda makes. */
export const NO_PDFTOTEXT = answers("pdftotext", ["-v"]) ? undefined : "no pdftotext (apt-get install poppler-utils)"
