import { availableParallelism } from "node:os"
import { defineConfig } from "vitest/config"
import { alias } from "./vitest.shared"

export default defineConfig({
  test: {
    // On the embedded database, two test files at a time even on 2 cores (vitest's default there is
    // one): each file opens databases of its own, and much of its time is spent waiting (spawned
    // binaries, PGlite's worker thread); on this project's 2-core machines a run took ~30% less time
    // (CI has 90 minutes). On PostgreSQL every file shares one database, and a file's job runner
    // would run another's jobs (a controlled clock years ahead ends the other's subscriptions), so
    // files run one at a time there.
    maxWorkers: process.env.DATABASE_URL === undefined ? Math.max(2, availableParallelism() - 1) : 1,
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
        // The CLI's tests spawn its built binary: the packages are built first.
        ...(name === "cli" ? { globalSetup: ["./test/globalSetup.ts"] } : {}),
        // The MCP stdio tests spawn the built `dist/stdio.js`.
        ...(name === "mcp" ? { globalSetup: ["./test/globalSetup.ts"] } : {})
      }
    })).concat([{
      resolve: { alias },
      test: {
        name: "examples",
        root: "./examples",
        include: ["*/test/**/*.test.ts"],
        benchmark: { include: [] },
        testTimeout: 120_000,
        hookTimeout: 900_000
      }
    }])
  }
})
