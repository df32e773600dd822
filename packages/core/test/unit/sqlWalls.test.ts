import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { PgliteClient } from "@roda/sql-pglite"
import { Effect, String as Str } from "effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { migrate } from "../../src/sql/migrate"
import { tableOwners, views } from "../../src/sql/ownership"

/**
 * The walls between features, for tables (sql/ownership.ts): a folder of packages/core/src names in
 * its SQL only its own tables, reads others' through their views, and writes no view.
 */

const src = fileURLToPath(new URL("../../src", import.meta.url))

const files = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith(".ts") ? [path] : []
  })

/** The owning folder of a file: `commerce/x` and `money/x` are features of their own. */
const folderOf = (file: string) => {
  const parts = file.split("/")
  return parts.length === 1 ? "" : ["commerce", "money"].includes(parts[0]!) ? `${parts[0]}/${parts[1]}` : parts[0]!
}

/** The source without comments (prose names tables freely), lines kept in place. */
const withoutComments = (text: string) =>
  text
    .replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, " "))
    .replace(/(^|[^:"'`\\])\/\/[^\n]*/g, "$1")

interface Use {
  readonly file: string
  readonly line: number
  readonly name: string
  readonly write: boolean
}

const identifier = "[a-z_][a-z0-9_]*"
const alias = `(?:\\s+(?:AS\\s+)?${identifier})?`
/** `FROM a x, b y`, `JOIN [LATERAL] a`, `INSERT INTO a`, `UPDATE a`, `DELETE FROM a`, `TRUNCATE TABLE a`. */
const keyword = new RegExp(
  `\\b(FROM|JOIN|INTO|UPDATE|TABLE)\\s+(?:LATERAL\\s+|ONLY\\s+)?(${identifier})(${alias}(?:\\s*,\\s*${identifier}${alias})*)`,
  "g"
)
/** A fragment that starts with a relation, spliced after a FROM elsewhere: sql`spaces t`. */
const fragment = new RegExp(`\\bsql(?:<[^\`]*?>)?\`\\s*(${identifier})\\s+${identifier}\\b`, "g")
/** A relation passed as an identifier: sql("comments"). */
const quoted = new RegExp(`\\bsql\\(\\s*["'](${identifier})["']\\s*\\)`, "g")

/** The relations each file of packages/core/src names in SQL (migrations excepted: they create everything). */
const uses = (): ReadonlyArray<Use> =>
  files(src).filter((path) => !relative(src, path).startsWith("sql/migrations/")).flatMap((path) => {
    const file = relative(src, path)
    const text = withoutComments(readFileSync(path, "utf8"))
    const lineOf = (index: number) => text.slice(0, index).split("\n").length
    const found: Array<Use> = []
    for (const match of text.matchAll(keyword)) {
      const write = match[1] !== "FROM" && match[1] !== "JOIN" ||
        /DELETE\s+$/.test(text.slice(Math.max(0, match.index - 10), match.index))
      found.push({ file, line: lineOf(match.index), name: match[2]!, write })
      if (match[1] === "FROM") {
        for (const more of match[3]!.split(",").slice(1)) {
          found.push({ file, line: lineOf(match.index), name: more.trim().split(/\s+/)[0]!, write: false })
        }
      }
    }
    for (const match of text.matchAll(fragment)) {
      found.push({ file, line: lineOf(match.index), name: match[1]!, write: false })
    }
    for (const match of text.matchAll(quoted)) {
      found.push({ file, line: lineOf(match.index), name: match[1]!, write: false })
    }
    return found
  })

describe("the walls between features, in SQL", () => {
  const all = uses()

  it("no folder names another folder's table (read others' views)", () => {
    const crossings = all
      .filter((use) => tableOwners[use.name] !== undefined && tableOwners[use.name] !== folderOf(use.file))
      .map((use) => `${use.file}:${use.line} names ${use.name} (owned by ${tableOwners[use.name]})`)
    expect([...new Set(crossings)]).toEqual([])
  })

  it("nobody writes through a view", () => {
    const writes = all.filter((use) => use.write && views[use.name] !== undefined)
      .map((use) => `${use.file}:${use.line} writes ${use.name}`)
    expect(writes).toEqual([])
  })

  it("the scan sees the SQL (views read across walls are found)", () => {
    const read = (file: string, name: string) => all.some((use) => use.file === file && use.name === name)
    expect(read("feed/Repo.ts", "member_cards")).toBe(true)
    expect(read("feed/Repo.ts", "reaction_activity")).toBe(true)
    expect(read("feed/sources.ts", "course_items")).toBe(true)
    expect(read("search/Repo.ts", "space_summaries")).toBe(true)
    expect(read("communities/Repo.ts", "account_contacts")).toBe(true)
    expect(read("platform/stripe/StripeStore.ts", "gateway_sellers")).toBe(true)
  })
})

const names = { transformQueryNames: Str.camelToSnake, transformResultNames: Str.snakeToCamel }

const migrated = <A>(query: (sql: PgliteClient.PgliteClient) => Effect.Effect<A, unknown>) =>
  Effect.runPromise(Effect.scoped(
    Effect.gen(function*() {
      yield* migrate
      return yield* query(yield* PgliteClient.PgliteClient)
    }).pipe(Effect.provide(PgliteClient.layer({ extensions: { pg_trgm, unaccent }, ...names })))
  ))

describe("the ownership map, against a migrated database", () => {
  it("declares every table and view, each view a projection of its owner's table", async () => {
    const { columns, relations, sources } = await migrated((sql) =>
      Effect.all({
        relations: sql<{ tableName: string; tableType: string }>`SELECT table_name, table_type
          FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
        sources: sql<{ viewName: string; tableName: string }>`SELECT view_name, table_name
          FROM information_schema.view_table_usage WHERE view_schema = 'public' ORDER BY view_name, table_name`,
        columns: sql<{ tableName: string; columnName: string }>`SELECT c.table_name, c.column_name
          FROM information_schema.columns c JOIN information_schema.views v
            ON v.table_schema = c.table_schema AND v.table_name = c.table_name
          WHERE c.table_schema = 'public' ORDER BY c.table_name, c.ordinal_position`
      })
    )
    const tables = relations.filter((r) => r.tableType === "BASE TABLE").map((r) => r.tableName)
    const inDatabase = relations.filter((r) => r.tableType === "VIEW").map((r) => r.tableName)

    expect(tables.filter((table) => tableOwners[table] === undefined), "tables missing from sql/ownership.ts")
      .toEqual([])
    expect(Object.keys(tableOwners).filter((table) => !tables.includes(table)), "declared tables not in the database")
      .toEqual([])
    expect(inDatabase.filter((view) => views[view] === undefined), "views missing from sql/ownership.ts").toEqual([])
    expect(Object.keys(views).filter((view) => !inDatabase.includes(view)), "declared views not in the database")
      .toEqual([])

    // one table each, the declared one, of the same owner
    expect(sources.map((s) => `${s.viewName} <- ${s.tableName}`).sort())
      .toEqual(Object.entries(views).map(([view, contract]) => `${view} <- ${contract.table}`).sort())
    for (const [view, contract] of Object.entries(views)) {
      expect(tableOwners[contract.table], `owner of ${view}`).toBe(contract.owner)
    }

    // no phone anywhere; e-mail only in a contact view
    expect(columns.filter((c) => c.columnName.includes("phone")).map((c) => c.tableName)).toEqual([])
    expect(
      columns.filter((c) => c.columnName.includes("email") && !c.tableName.includes("contact")).map((c) => c.tableName)
    ).toEqual([])
  })
})
