import { SqlClient } from "@effect/sql"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { PgliteClient } from "@roda/sql-pglite"
import { Effect, Layer, String as Str } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { DatabaseLive } from "../../node/sql/Database"
import { templateKey } from "../../node/sql/template"
import { migrate } from "../../src/sql/migrate"
import { migrations } from "../../src/sql/migrations"

const names = { transformQueryNames: Str.camelToSnake, transformResultNames: Str.snakeToCamel }
const scratch = mkdtempSync(join(tmpdir(), "roda-template-"))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const runIn = <A>(dataDir: string, snapshotDir: string, query: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(Effect.scoped(
    Layer.build(DatabaseLive({ _tag: "Embedded", dataDir, snapshotDir })).pipe(
      Effect.flatMap((context) => Effect.provide(query, context))
    )
  ))

describe("embedded data folders", () => {
  it("a new folder starts from the migrated template, then keeps its own data", async () => {
    const templates = join(scratch, "templates")
    mkdirSync(templates)
    await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function*() {
          const client = yield* PgliteClient.PgliteClient
          yield* migrate
          yield* client`CREATE TABLE template_marker (note text)`
          yield* client`INSERT INTO template_marker VALUES ('from the template')`
          const blob = yield* client.dumpDataDir
          const bytes = yield* Effect.promise(() => blob.arrayBuffer())
          writeFileSync(join(templates, `pglite-template-${templateKey()}.tar`), new Uint8Array(bytes))
        }).pipe(Effect.provide(PgliteClient.layer({ extensions: { pg_trgm, unaccent }, ...names })))
      )
    )

    const folder = join(scratch, "data")
    const first = await runIn(
      folder,
      templates,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const marker = yield* sql<{ note: string }>`SELECT note FROM template_marker`
        const applied = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM roda_migrations`
        yield* sql`INSERT INTO template_marker VALUES ('written later')`
        return { marker: marker.map((row) => row.note), applied: applied[0]!.n }
      })
    )
    expect(first).toEqual({ marker: ["from the template"], applied: Object.keys(migrations).length })

    // Opened again, the folder is no longer new: its own rows are there, the template is not reloaded.
    const second = await runIn(
      folder,
      templates,
      Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql<{ note: string }>`SELECT note FROM template_marker ORDER BY note`
      )
    )
    expect(second.map((row) => row.note)).toEqual(["from the template", "written later"])

    // An empty folder made beforehand (a mounted volume, say) is new too, and nothing is left beside it.
    const premade = join(scratch, "premade")
    mkdirSync(premade)
    const notes = await runIn(
      premade,
      templates,
      Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ note: string }>`SELECT note FROM template_marker`)
    )
    expect(notes.map((row) => row.note)).toEqual(["from the template"])
    expect(existsSync(join(premade, "PG_VERSION"))).toBe(true)
    expect(readdirSync(scratch).filter((name) => name.includes("partial"))).toEqual([])
  })

  it("a folder that cannot be put in place leaves nothing beside it", async () => {
    const templates = join(scratch, "templates-unmovable")
    mkdirSync(templates)
    writeFileSync(join(templates, `pglite-template-${templateKey()}.tar`), new Uint8Array(1024))
    const parent = join(scratch, "unmovable")
    mkdirSync(parent)
    // A file where the folder should go: the unpacked folder cannot be renamed onto it.
    const target = join(parent, "data")
    writeFileSync(target, "not a folder")
    const outcome = await runIn(target, templates, Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1`))
      .then(() => "opened", () => "failed")
    expect(outcome).toBe("failed")
    expect(readdirSync(parent)).toEqual(["data"])
  })
})
