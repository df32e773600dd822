import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"

/** What the certificates groups (`Api.ts`, `TemplatesApi.ts`, `CertificatePagesApi.ts`) share. */
export const Iso = Schema.String
export const Nullable = <S extends Schema.Schema.Any>(schema: S) => Schema.NullOr(schema)

export const STAFF = "Owner, admin or moderator (403 otherwise)."
export const MOVES = "A refused move answers 409 with `errors[0].param = \"status\"` and the allowed moves."

export const Binary = HttpApiSchema.Uint8Array({ contentType: "application/octet-stream" })
