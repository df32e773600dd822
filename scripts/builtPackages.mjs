// Whether each workspace package's `dist/` is current, and building those that are not: shared by
// `pnpm start` (scripts/start.mjs) and the test run (testing/builtPackages.ts).
import { execFileSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const packages = fileURLToPath(new URL("../packages/", import.meta.url))

/**
 * Dependencies first: each package's build reads the declarations of those it imports, and the
 * `roda-server` binary (`http-node`) carries the built `@roda/mcp` in its chunks.
 */
export const ORDER = ["sql-pglite", "core", "mcp", "http-node", "cli", "client"]

/** The newest modification time of the files under `dir`. */
const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

/** The files a build writes that the package's manifest names: its modules and binaries, and its declarations. */
const outputsOf = (manifest, declarations) => {
  const conditions = declarations ? ["import", "types"] : ["import"]
  const exported = Object.values(manifest.exports ?? {})
    .flatMap((target) => typeof target === "string" ? [] : conditions.map((condition) => target[condition]))
  return [...exported, ...Object.values(manifest.bin ?? {})]
    .filter((file) => typeof file === "string" && file.startsWith("./dist/"))
}

/**
 * Built after the last change to its sources and its build settings: every module and binary its
 * manifest names, and with `declarations` (the default) their declarations too.
 */
export const isCurrent = (name, { declarations = true } = {}) => {
  const dir = join(packages, name)
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  const built = outputsOf(manifest, declarations).map((file) => join(dir, file))
  if (!built.every(existsSync)) return false
  const sources = ["src", "node", "scripts"].map((folder) => join(dir, folder)).filter(existsSync)
  const settings = ["package.json", "tsup.config.ts"].map((file) => statSync(join(dir, file)).mtimeMs)
  return Math.min(...built.map((file) => statSync(file).mtimeMs)) >= Math.max(...sources.map(newest), ...settings)
}

/** Of `names` (in ORDER), the first not current and every one after it (the later carry or import the earlier). */
export const staleOf = (names, options) => {
  const ordered = ORDER.filter((name) => names.includes(name))
  const first = ordered.findIndex((name) => !isCurrent(name, options))
  return first === -1 ? [] : ordered.slice(first)
}

/** `pnpm run build` of one package; `quiet` keeps its output unless it fails. */
export const build = (name, { env = {}, quiet = false } = {}) => {
  try {
    execFileSync("pnpm", ["--filter", `@roda/${name}`, "run", "build"], {
      cwd: packages,
      env: { ...process.env, ...env },
      stdio: quiet ? "pipe" : "inherit"
    })
  } catch (error) {
    if (quiet) process.stderr.write(`${error.stdout ?? ""}${error.stderr ?? ""}`)
    throw error
  }
}
