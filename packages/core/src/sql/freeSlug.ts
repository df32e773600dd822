import type { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { conflict, fieldError } from "../domain/AppError"
import { Messages } from "../domain/Messages"
import { uniqueViolation } from "./errors"

/** 409 naming `slug`: the slug is already in use in this community. */
export const slugTaken = () => conflict(Messages.slugTaken, [fieldError("slug", Messages.slugTaken)])

/**
 * Inserts a row whose slug is unique per community. A generated slug that is taken gets `-2` …
 * `-10`, then a random suffix; a taken explicit slug is a 409. Each try runs in a savepoint when
 * nested, so a taken slug leaves an outer transaction usable. Answers the slug used.
 */
export const insertWithFreeSlug = (options: {
  readonly sql: SqlClient.SqlClient
  readonly slug: string
  readonly generated: boolean
  readonly insert: (slug: string) => Effect.Effect<unknown, unknown>
  readonly randomSuffix: Effect.Effect<string>
}) =>
  Effect.gen(function*() {
    for (let attempt = 1;; attempt++) {
      const slug = attempt === 1
        ? options.slug
        : attempt <= 10
        ? `${options.slug.slice(0, 74)}-${attempt}`
        : `${options.slug.slice(0, 71)}-${(yield* options.randomSuffix).slice(-8)}`
      const taken = yield* options.sql.withTransaction(options.insert(slug)).pipe(
        Effect.as(false),
        Effect.catchAll((error) => uniqueViolation(error) === undefined ? Effect.die(error) : Effect.succeed(true))
      )
      if (!taken) return slug
      if (!options.generated || attempt >= 50) return yield* Effect.fail(slugTaken())
    }
  })
