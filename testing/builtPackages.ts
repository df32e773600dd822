/**
 * The suites that run what ships (the `roda` CLI, the MCP stdio entry, the built server, the examples)
 * spawn the built `dist/` of the workspace packages. `pnpm build` makes it (CI runs it before the
 * tests, and this finds it current); a package whose `dist/` is missing or older than its sources is
 * built here (scripts/builtPackages.mjs, which `pnpm start` shares), once per run, before any test;
 * not when the run was given files to run (`vitest run <filter>…`) and none of them spawns what ships.
 */
import { readdirSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { build, ORDER, staleOf } from "../scripts/builtPackages.mjs"

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

/** From the first package not current on (with its declarations), each is built. */
export default function setup() {
  if (!runsBuilt()) return
  for (const name of staleOf(ORDER)) build(name)
}
