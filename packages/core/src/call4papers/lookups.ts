import type { Schema } from "effect"
import { Effect, Option } from "effect"
import { NotFound, notFound } from "../domain/AppError"
import { decodeCursor, DEFAULT_LIMIT, type PageQuery, toPage } from "../domain/Pagination"
import type { Message } from "../domain/Text"

/** The row a lookup found, or 404 with `message`. */
export const orNotFound =
  <Code extends string>(message: Message<Code>) => <A, E, R>(lookup: Effect.Effect<Option.Option<A>, E, R>) =>
    Effect.flatMap(
      lookup,
      Option.match({ onNone: () => Effect.fail(notFound(message)), onSome: (row) => Effect.succeed(row) })
    )

/** A 404 of `effect` (e.g. the call of a track one may not see) told as the 404 of what was asked for. */
export const notFoundAs = <Code extends string>(message: Message<Code>) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchIf(
    effect,
    (error): error is Extract<E, NotFound> => error instanceof NotFound,
    () => Effect.fail(notFound(message))
  )

/**
 * One keyset page: the cursor checked against `cursor` (400 otherwise), `fetch` given the key after
 * which to read and the page size (it reads one row more, to tell whether a next page exists).
 */
export const keysetPage = <K, I, Row, E, R>(
  query: PageQuery,
  cursor: Schema.Schema<K, I>,
  fetch: (after: K | undefined, limit: number) => Effect.Effect<ReadonlyArray<Row>, E, R>,
  keyOf: (row: Row) => ReadonlyArray<string | number>
) =>
  Effect.gen(function*() {
    const limit = query.limit ?? DEFAULT_LIMIT
    const after = yield* decodeCursor(query.cursor, cursor)
    return toPage(yield* fetch(after, limit), limit, keyOf)
  })

/** A page as `keysetPage` returns it. */
export type Page<Row> = ReturnType<typeof toPage<Row>>
