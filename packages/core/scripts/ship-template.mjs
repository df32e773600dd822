// Leaves the migrated PGlite template beside the built package (dist/pglite-template-<key>.tar), so
// that a new embedded data folder opens without running every migration (see node/sql/template.ts).
import { fileURLToPath, URL } from "node:url"
import { defaultOptions, makeRoda, secret } from "../dist/node.js"

const dist = fileURLToPath(new URL("../dist", import.meta.url))
const roda = makeRoda({
  database: { _tag: "Embedded", dataDir: "memory", snapshotDir: dist },
  options: defaultOptions({ jwtSecret: secret("template-only-secret-never-used-to-sign") })
})
await roda.ready()
await roda.dispose()
