/**
 * The suites that run what ships (the `roda` CLI, the MCP stdio entry, the built server, the examples)
 * spawn the built `dist/` of the workspace packages. `pnpm build` makes it (CI runs it before the
 * tests, and this finds it current); a package whose `dist/` is missing or older than its sources is
 * built here, once per run, before any test; not when the run was given files to run (`vitest run
 * <filter>…`) and none of them spawns what ships.
 */
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const packages = fileURLToPath(new URL("../packages/", import.meta.url))

/** Dependencies first: each package's build reads the declarations of those it imports. */
const ORDER = ["sql-pglite", "core", "http-node", "mcp", "cli"]

/** The newest modification time of the files under `dir`. */
const newest = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

/** Built, with its declarations, after the last change to its sources and its build settings. */
export const isCurrent = (name: string) => {
  const dir = join(packages, name)
  const built = ["index.js", "index.d.ts"].map((file) => join(dir, "dist", file))
  if (!built.every(existsSync)) return false
  const sources = ["src", "node", "scripts"].map((folder) => join(dir, folder)).filter(existsSync)
  const settings = ["package.json", "tsup.config.ts"].map((file) => statSync(join(dir, file)).mtimeMs)
  return Math.min(...built.map((file) => statSync(file).mtimeMs)) >= Math.max(...sources.map(newest), ...settings)
}

const root = fileURLToPath(new URL("../", import.meta.url))

/** The test files that spawn the built packages, from the repository's root. */
const spawningFiles = () =>
  ["packages/cli/test", "packages/mcp/test", "packages/http-node/test/built", "examples"].flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
      .filter((file) => file.endsWith(".test.ts") && !file.includes("node_modules"))
      .map((file) => `${folder}/${file}`)
  )

/** Whether this run may run a file that spawns the built packages: all files, or a filter matching one. */
const runsBuilt = () => {
  const args = process.argv.slice(2)
  // (an argument after `--flag` without `=` is the flag's value)
  const isValue = (i: number) => args[i - 1]?.startsWith("--") === true && !args[i - 1]!.includes("=")
  const filters = args.filter((arg, i) => !arg.startsWith("-") && arg !== "run" && !isValue(i))
  return filters.length === 0 || spawningFiles().some((file) => filters.some((filter) => file.includes(filter)))
}

/** From the first package not current on, each is built (the later ones carry or import the earlier). */
export default function setup() {
  if (!runsBuilt()) return
  const stale = ORDER.findIndex((name) => !isCurrent(name))
  if (stale === -1) return
  for (const name of ORDER.slice(stale)) {
    execFileSync("pnpm", ["--filter", `@roda/${name}`, "run", "build"], { cwd: packages, stdio: "inherit" })
  }
}
