import { PGlite } from "@electric-sql/pglite"
import { Logger } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { defaultOptions, makeRoda, secret } from "../../node/index"

const jwtSecret = secret("a-test-secret-that-is-long-enough-123")

// A new folder starts from the migrated template (the process's or the built package's) and has
// nothing to migrate; a folder holding a database without Roda's tables has every migration applied.
describe("makeRoda logger option", () => {
  it("logger: receives Roda's own lines, such as the migrations it applies (ready() migrates)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "roda-logger-"))
    await (await PGlite.create(dir)).close()
    const lines: Array<string> = []
    const logger = Logger.make(({ logLevel, message }) => {
      lines.push(`${logLevel.label} ${Array.isArray(message) ? message.join(" ") : String(message)}`)
    })
    const roda = makeRoda({
      database: { _tag: "Embedded", dataDir: dir },
      options: defaultOptions({ jwtSecret }),
      logger
    })
    try {
      await roda.ready()
      expect(lines).toContainEqual(expect.stringMatching(/^INFO applying \d+ migrations$/))
    } finally {
      await roda.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
