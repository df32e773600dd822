import { defineWorkspace } from "vitest/config"
import { alias } from "./vitest.shared"

export default defineWorkspace(
  ["core", "sql-pglite", "http-node"].map((name) => ({
    resolve: { alias },
    test: {
      name,
      root: `./packages/${name}`,
      include: ["test/**/*.test.ts"],
      testTimeout: 30_000,
      hookTimeout: 60_000
    }
  }))
)
