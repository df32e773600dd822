// Leaves the migrated PGlite template beside the built package (dist/pglite-template-<key>.tar), so
// that a new embedded data folder opens without running every migration (see node/sql/template.ts).
// Beside it, the same database as a folder PGlite closed cleanly (dist/pglite-folder-<key>.tar): a
// new data folder is unpacked from it, and opens in half the time of a dump of a running database,
// which PostgreSQL first recovers as after a crash. The folder holds only the database PGlite opens
// (template1): initdb's `postgres` and `template0` are dropped, 600 of its 1,500 files, since writing
// each file is most of the time a fresh start spends unpacking. For the same reason the free space and
// visibility maps (`*_fsm`, `*_vm`, 86 more files) are left out: they are hints PostgreSQL makes again
// when it needs them (a relation without them reads as having no known free space and no page known
// all-visible, which is only slower for tables a template holds empty or nearly).
import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import process from "node:process"
import { fileURLToPath, URL } from "node:url"
import * as tar from "tar"
import { defaultOptions, makeRoda, secret } from "../dist/node.js"

const dist = fileURLToPath(new URL("../dist", import.meta.url))
const roda = makeRoda({
  database: { _tag: "Embedded", dataDir: "memory", snapshotDir: dist },
  options: defaultOptions({ jwtSecret: secret("template-only-secret-never-used-to-sign") })
})
await roda.ready()
await roda.dispose()

const [template] = readdirSync(dist)
  .filter((name) => /^pglite-template-\w+\.tar$/.test(name))
  .sort((a, b) => statSync(join(dist, b)).mtimeMs - statSync(join(dist, a)).mtimeMs)
const key = /^pglite-template-(\w+)\.tar$/.exec(template)[1]
const folder = mkdtempSync(join(tmpdir(), "roda-template-folder-"))
try {
  tar.x({ file: join(dist, template), cwd: folder, sync: true })
  const db = await PGlite.create(folder, { extensions: { pg_trgm, unaccent } })
  await db.exec("DROP DATABASE postgres")
  await db.exec("ALTER DATABASE template0 IS_TEMPLATE false")
  await db.exec("DROP DATABASE template0")
  await db.exec("CHECKPOINT")
  await db.close()
  for (const top of ["base", "global"]) {
    for (const entry of readdirSync(join(folder, top), { recursive: true })) {
      if (/_(fsm|vm)$/.test(entry)) rmSync(join(folder, top, entry))
    }
  }
  const partial = join(dist, `pglite-folder-${key}.tar.${process.pid}.partial`)
  tar.c({ file: partial, cwd: folder, sync: true, portable: true }, readdirSync(folder))
  renameSync(partial, join(dist, `pglite-folder-${key}.tar`))
  // The key, for the server's early start (node/prestart.ts), which finds the template before loading
  // the migrations its key is computed from.
  writeFileSync(join(dist, "pglite-template.json"), JSON.stringify({ key }))
} finally {
  rmSync(folder, { recursive: true, force: true })
}
