import { fileURLToPath } from "node:url"

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url))

export const alias = {
  "@roda/core": pkg("core"),
  "@roda/sql-pglite": pkg("sql-pglite"),
  "@roda/http-node": pkg("http-node"),
  "@roda/cli": pkg("cli"),
  "@roda/mcp": pkg("mcp")
}
