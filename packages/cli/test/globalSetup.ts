import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const packages = fileURLToPath(new URL("../../", import.meta.url))

/** The newest modification time of the files under `dir`. */
const newest = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

/**
 * The tests run the BUILT binary (`node packages/cli/dist/main.js`), which imports the built workspace
 * packages: each is built (`pnpm --filter <name> build`) when its `dist` is missing or older than its
 * sources.
 */
export default function setup() {
  for (const name of ["sql-pglite", "core", "http-node", "mcp", "cli"]) {
    const built = join(packages, name, "dist", "index.js")
    // core's Node platform (`@roda/core/node`) is built from node/, beside src/
    const sources = ["src", "node"].map((folder) => join(packages, name, folder)).filter((dir) => existsSync(dir))
    if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newest))) continue
    execFileSync("pnpm", ["--filter", `@roda/${name}`, "run", "build"], { cwd: packages, stdio: "inherit" })
  }
}
