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
 * The stdio tests spawn the BUILT entry (`node packages/mcp/dist/stdio.js`), which imports the built
 * workspace packages: each is built when its `dist` is missing or older than its sources.
 */
export default function setup() {
  for (const name of ["sql-pglite", "core", "mcp"]) {
    const built = join(packages, name, "dist", "index.js")
    // core's Node platform (`@roda/core/node`) is built from node/, beside src/
    const sources = ["src", "node"].map((folder) => join(packages, name, folder)).filter((dir) => existsSync(dir))
    if (existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newest))) continue
    // JavaScript only: the spawned process needs no declaration files (they take minutes).
    execFileSync("pnpm", ["--filter", `@roda/${name}`, "exec", "tsup", "--no-dts"], { cwd: packages, stdio: "inherit" })
  }
}
