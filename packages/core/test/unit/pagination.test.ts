import { describe, expect, it } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { AppError } from "../../src/domain/AppError"
import { Uuid } from "../../src/domain/Ids"
import { decodeCursor, encodeCursor, PageQuery, toPage } from "../../src/domain/Pagination"

const AnyKey = Schema.Array(Schema.Union(Schema.String, Schema.Number))
const IdKey = Schema.Tuple(Uuid)

describe("cursors", () => {
  it.effect("round-trip the keyset", () =>
    Effect.gen(function*() {
      for (
        const key of [["01a201f5-c38d-7a9c-8c7c-d9cc38afb4b6"], ["2026-11-22T06:33:33.326Z", "id"], [42, "x"], [
          "ção ✓"
        ], []]
      ) {
        const cursor = encodeCursor(key)
        expect(cursor).toMatch(/^[A-Za-z0-9_-]*$/)
        expect(yield* decodeCursor(cursor, AnyKey)).toEqual(key)
      }
    }))

  it.effect("no cursor is the first page", () =>
    Effect.gen(function*() {
      expect(yield* decodeCursor(undefined, AnyKey)).toBeUndefined()
    }))

  it.effect("checks the keyset's shape, so no forged value reaches a query", () =>
    Effect.gen(function*() {
      const id = "01a201f5-c38d-7a9c-8c7c-d9cc38afb4b6"
      expect(yield* decodeCursor(encodeCursor([id]), IdKey)).toEqual([id])
      for (const forged of [["not-a-uuid"], [id, id], [42]]) {
        const error = yield* Effect.flip(decodeCursor(encodeCursor(forged), IdKey))
        expect(error.status).toBe(400)
      }
    }))

  it.effect.each([
    ["not base64url JSON", "%%%"],
    ["JSON that is not an array", Buffer.from("{\"id\":1}").toString("base64url")],
    ["an array of other things", Buffer.from("[true, null]").toString("base64url")],
    ["an array holding an object", Buffer.from("[{\"a\":1}]").toString("base64url")],
    ["truncated", encodeCursor(["abc", "def"]).slice(0, -3)],
    ["empty", ""]
  ])("fails with a 400 naming cursor when %s", ([, cursor]) =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(decodeCursor(cursor, AnyKey))
      expect(error).toBeInstanceOf(AppError)
      expect(error.status).toBe(400)
      expect(error.text).toEqual({ pt: "cursor is not valid", en: "cursor is not valid", code: "invalid_input" })
      expect(error.errors).toEqual([
        {
          param: "cursor",
          msg: { pt: "cursor is not valid", en: "cursor is not valid", code: "invalid_input" },
          location: "query"
        }
      ])
    }))
})

describe("toPage", () => {
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `row-${i}` }))

  it.effect("with one row more than the limit, gives the limit and a cursor after the last one shown", () =>
    Effect.gen(function*() {
      const page = toPage(rows(4), 3, (row) => [row.id])
      expect(page.items.map((row) => row.id)).toEqual(["row-0", "row-1", "row-2"])
      expect(page.pagination.limit).toBe(3)
      expect(page.pagination.nextCursor).not.toBeNull()
      expect(yield* decodeCursor(page.pagination.nextCursor!, AnyKey)).toEqual(["row-2"])
    }))

  it.effect("with the limit or fewer rows, has no next page", () =>
    Effect.sync(() => {
      expect(toPage(rows(3), 3, (row) => [row.id]).pagination).toEqual({ limit: 3, nextCursor: null })
      expect(toPage(rows(0), 20, (row) => [row.id])).toEqual({ items: [], pagination: { limit: 20, nextCursor: null } })
    }))
})

describe("PageQuery", () => {
  const decode = Schema.decodeUnknownEither(PageQuery)

  it.effect("reads limit from the query string, between 1 and 100", () =>
    Effect.sync(() => {
      expect(decode({})).toEqual(Either.right({}))
      expect(decode({ limit: "1" })).toEqual(Either.right({ limit: 1 }))
      expect(decode({ limit: "100", cursor: "abc" })).toEqual(Either.right({ limit: 100, cursor: "abc" }))
      for (const limit of ["0", "101", "2.5", "abc", "-1", ""]) {
        const result = decode({ limit })
        expect(Either.isLeft(result)).toBe(true)
        if (Either.isLeft(result)) expect(result.left.message).toContain("limit must be an integer between 1 and 100")
      }
    }))
})
