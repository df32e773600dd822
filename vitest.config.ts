import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { alias } from "./vitest.shared"

/** The projects whose tests spawn the built packages (`dist/`): see testing/builtPackages.ts. */
const spawnsBuilt = new Set(["cli", "mcp", "examples"])

const testing = (file: string) => fileURLToPath(new URL(`./testing/${file}`, import.meta.url))

const setup = (name: string) => ({
  // The run's migrated template, made once; each test file's own database, made from it.
  globalSetup: [testing("globalSetup.ts"), ...(spawnsBuilt.has(name) ? [testing("builtPackages.ts")] : [])],
  setupFiles: [testing("fileDatabase.ts")]
})

export default defineConfig({
  test: {
    // Two test files at a time even on 2 cores (vitest's default there is one): each file has a
    // database of its own, and much of its time is spent waiting (spawned binaries, PGlite's worker
    // thread, the PostgreSQL server); on this project's 2-core machines a run took ~30% less time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    projects: ["core", "sql-pglite", "http-node", "cli", "mcp"].map((name) => ({
      resolve: { alias },
      test: {
        name,
        root: `./packages/${name}`,
        include: ["test/**/*.test.ts"],
        benchmark: { include: ["bench/**/*.bench.ts"] },
        // Each CLI test spawns the binary several times, each opening a database: slow on a busy machine.
        testTimeout: name === "cli" ? 240_000 : 60_000,
        hookTimeout: 120_000,
        ...setup(name)
      }
    })).concat([{
      resolve: { alias },
      test: {
        name: "examples",
        root: "./examples",
        include: ["*/test/**/*.test.ts"],
        benchmark: { include: [] },
        testTimeout: 120_000,
        hookTimeout: 900_000,
        ...setup("examples")
      }
    }])
  }
})
