// Builds the OpenAPI document from the source (RodaApi, as served at /api/openapi.json) and lints it
// with Redocly (recommended rules, warnings as errors) and Spectral (spectral:oas, failing on warnings).
// Usage: node scripts/lint-openapi.mjs [--out file.json]
import { spawnSync } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { tsImport } from "tsx/esm/api"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const core = join(root, "packages/core")

const { RodaApi } = await tsImport(pathToFileURL(join(core, "src/api/RodaApi.ts")).href, import.meta.url)
const platform = createRequire(join(core, "package.json")).resolve("@effect/platform")
const { OpenApi } = await import(pathToFileURL(platform).href)
const document = OpenApi.fromApi(RodaApi)

const outAt = process.argv.indexOf("--out")
const file = outAt > 0
  ? resolve(process.argv[outAt + 1])
  : join(mkdtempSync(join(tmpdir(), "roda-openapi-")), "openapi.json")
writeFileSync(file, JSON.stringify(document, null, 2))
const operations = Object.values(document.paths).flatMap((item) => Object.keys(item)).length
console.log(`OpenAPI document: ${file} (${Object.keys(document.paths).length} paths, ${operations} operations)`)

const bin = (name) => join(root, "node_modules/.bin", name)
const run = (title, command, args) => {
  console.log(`\n== ${title}`)
  // No telemetry or update checks: CI may have no internet.
  const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env })
  return result.status === 0
}

const redocly = run("Redocly (recommended, warnings are errors)", bin("redocly"), [
  "lint",
  "--config",
  join(root, "redocly.yaml"),
  file
])
const spectral = run("Spectral (spectral:oas, fails on warnings)", bin("spectral"), [
  "lint",
  "--ruleset",
  join(root, ".spectral.yaml"),
  "--fail-severity",
  "warn",
  file
])
if (!redocly || !spectral) {
  console.error("\nThe OpenAPI document has lint problems (see above).")
  process.exit(1)
}
console.log("\nThe OpenAPI document is lint clean.")
