import { SqlClient } from "@effect/sql"
import { Clock, Effect, Layer, Option, Schema } from "effect"
import { decodeRows } from "../domain/Rows"
import { Options, type RodaOptions } from "./Options"

/**
 * Which public URL (links in e-mails and certificates, the OAuth issuer) a Roda uses, so that every
 * process on one database builds the same links as the server people reach:
 * - `"record"` (`makeRoda`'s default): `options.publicBaseUrl`, recorded in the database when the
 *   services start, as the URL the service is reached at (the last server to start wins);
 * - `"given"` (`servicesLayer`'s default): `options.publicBaseUrl`, not recorded (a tool given its own);
 * - `"recorded"`: the URL a server recorded; `options.publicBaseUrl` while none is;
 * - `"recordedOnly"`: the URL a server recorded; without one the services do not start (a
 *   `PublicUrlUnknown` defect), for a tool that must not send links to a guessed address.
 */
export type PublicUrlSource = "record" | "given" | "recorded" | "recordedOnly"

/** No server has recorded its public URL in this database (`"recordedOnly"`). */
export class PublicUrlUnknown extends Error {
  override readonly name = "PublicUrlUnknown"
  constructor() {
    super("No public URL is recorded in the database: no server has run on it yet")
  }
}

const NAME = "public_base_url"

/** The public URL a server recorded, if one did. */
const decodeValues = decodeRows(Schema.Struct({ value: Schema.String }))

export const recordedPublicBaseUrl = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql`SELECT value FROM instance_settings WHERE name = ${NAME}`.pipe(
      Effect.flatMap(decodeValues),
      Effect.map((rows) => Option.fromNullable(rows[0]?.value)),
      Effect.orDie
    )
)

/** Records `url` as the public URL of the service (an upsert: several servers may start at once). */
export const recordPublicBaseUrl = (url: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = new Date(yield* Clock.currentTimeMillis)
    yield* sql`INSERT INTO instance_settings (name, value, updated_at) VALUES (${NAME}, ${url}, ${at})
      ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie)
  })

/**
 * `Options` as `source` says, with what it needs of the database: recording is part of building the
 * services (so done once `ready` resolves); `Options` itself waits for the database only when it is
 * read from it.
 */
export const optionsLayer = <E, R>(
  options: RodaOptions,
  source: PublicUrlSource,
  database: Layer.Layer<SqlClient.SqlClient, E, R>
): Layer.Layer<Options, E, R> => {
  switch (source) {
    case "given":
      return Layer.succeed(Options, options)
    case "record":
      return Layer.merge(
        Layer.succeed(Options, options),
        Layer.effectDiscard(recordPublicBaseUrl(options.publicBaseUrl)).pipe(Layer.provide(database))
      )
    case "recorded":
    case "recordedOnly":
      return Layer.effect(
        Options,
        Effect.flatMap(recordedPublicBaseUrl, (recorded) =>
          Option.match(recorded, {
            onSome: (publicBaseUrl) => Effect.succeed({ ...options, publicBaseUrl }),
            onNone: () => source === "recorded" ? Effect.succeed(options) : Effect.die(new PublicUrlUnknown())
          }))
      ).pipe(Layer.provide(database))
  }
}
