import { fileURLToPath } from "node:url"

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url))

// Subpaths before their package (`@roda/core/node` before `@roda/core`): the first alias that matches wins.
export const alias = {
  "@roda/core/node/prestart": fileURLToPath(new URL("./packages/core/node/prestart.ts", import.meta.url)),
  "@roda/sql-pglite/prestart": fileURLToPath(new URL("./packages/sql-pglite/src/prestart.ts", import.meta.url)),
  "@roda/core/api": fileURLToPath(new URL("./packages/core/src/api/index.ts", import.meta.url)),
  "@roda/client/fetch": fileURLToPath(new URL("./packages/client/src/fetch.ts", import.meta.url)),
  "@roda/core/node": fileURLToPath(new URL("./packages/core/node/index.ts", import.meta.url)),
  "@roda/core": pkg("core"),
  "@roda/sql-pglite": pkg("sql-pglite"),
  "@roda/http-node": pkg("http-node"),
  "@roda/cli": pkg("cli"),
  "@roda/mcp": pkg("mcp"),
  "@roda/client": pkg("client")
}
