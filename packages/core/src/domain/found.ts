import { Effect, Option } from "effect"
import { notFound } from "./AppError"
import type { Message } from "./Text"

/** The row, or 404 with `text`. */
export const orNotFound =
  <Code extends string>(text: Message<Code>) => <A, E, R>(lookup: Effect.Effect<Option.Option<A>, E, R>) =>
    Effect.flatMap(
      lookup,
      Option.match({ onNone: () => Effect.fail(notFound(text)), onSome: (row) => Effect.succeed(row) })
    )
