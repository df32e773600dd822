import { availableParallelism } from "node:os"
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import { alias } from "./vitest.shared"

const testing = (file: string) => fileURLToPath(new URL(`./testing/${file}`, import.meta.url))

/**
 * Files that need a process no other file ran in (each in a worker of its own: the threads pool,
 * isolated): a module replaced (`vi.mock`), or a thread with no PGlite runtime yet. Every other file
 * shares its worker's modules with the files run there before it.
 */
const ownWorker = [
  "packages/core/test/unit/authenticationErrors.test.ts",
  "packages/sql-pglite/test/workerRuntime.test.ts"
]

const project = (name: string, include: Array<string>, exclude: Array<string>, pool: "forks" | "threads") => ({
  resolve: { alias },
  test: {
    name,
    include,
    exclude: ["**/node_modules/**", ...exclude],
    pool,
    benchmark: { include: ["packages/*/bench/**/*.bench.ts"] },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The run's migrated template and the packages' builds, made once (testing/globalSetup.ts,
    // testing/builtPackages.ts: the CLI, MCP, server and example tests spawn what ships); then each
    // test file's own database, made from the template (testing/fileDatabase.ts).
    globalSetup: [testing("globalSetup.ts"), testing("builtPackages.ts")],
    setupFiles: [testing("fileDatabase.ts")]
  }
})

export default defineConfig({
  test: {
    // Two test files at a time even on 2 cores (vitest's default there is one): each file has a
    // database of its own, and much of its time is spent waiting (spawned binaries, PGlite's worker
    // thread, the PostgreSQL server); on this project's 2-core machines a run took ~30% less time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    minWorkers: 1,
    // A worker keeps its modules from one file to the next: importing Effect and Roda afresh for each
    // file was about 3 s of every file's time. What a file changes in its process it undoes (timers,
    // listeners; its Rodas disposed); its database is its own. One project, so that both workers stay
    // busy to the end of the run (vitest runs the files of one project after another's when workers
    // are shared).
    poolOptions: { forks: { isolate: false }, threads: { isolate: true } },
    projects: [
      project("roda", ["packages/*/test/**/*.test.ts", "examples/*/test/**/*.test.ts"], ownWorker, "forks"),
      project("roda (own worker)", ownWorker, [], "threads")
    ]
  }
})
