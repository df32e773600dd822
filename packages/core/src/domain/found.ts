import { Effect, Option } from "effect"
import { notFound } from "./AppError"
import type { Text } from "./Text"

/** The row, or 404 with `text`. */
export const orNotFound = (text: Text) => <A, E, R>(lookup: Effect.Effect<Option.Option<A>, E, R>) =>
  Effect.flatMap(
    lookup,
    Option.match({ onNone: () => Effect.fail(notFound(text)), onSome: (row) => Effect.succeed(row) })
  )
