// `pnpm start`, before it runs the built server: builds the JavaScript (no declarations) of the
// server's packages whose `dist/` is missing or older than their sources, saying so on stderr, one
// line per package; when every one is current it builds nothing, and the server starts at once.
import { existsSync } from "node:fs"
import { build, isCurrent, staleOf } from "./builtPackages.mjs"

/** `roda-server`'s package and the workspace packages it carries. */
const SERVER = ["sql-pglite", "core", "mcp", "http-node"]
const options = { declarations: false }

const stale = staleOf(SERVER, options)
const first = stale[0]
for (const name of stale) {
  const why = !existsSync(new URL(`../packages/${name}/dist/`, import.meta.url))
    ? "not built yet"
    : !isCurrent(name, options)
    ? "its sources changed since its last build"
    : `it carries or imports @roda/${first}`
  process.stderr.write(`pnpm start: building @roda/${name} (${why})\n`)
  build(name, { env: { RODA_SKIP_DTS: "1" }, quiet: true })
}
