import { defineConfig } from "vitest/config"
import { alias } from "./vitest.shared"

export default defineConfig({
  test: {
    projects: ["core", "sql-pglite", "http-node"].map((name) => ({
      resolve: { alias },
      test: {
        name,
        root: `./packages/${name}`,
        include: ["test/**/*.test.ts"],
        benchmark: { include: ["bench/**/*.bench.ts"] },
        testTimeout: 60_000,
        hookTimeout: 120_000
      }
    }))
  }
})
