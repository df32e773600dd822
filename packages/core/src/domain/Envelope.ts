import { Schema } from "effect"

/** What every answer says in words, in the caller's language (`Accept-Language`; Portuguese by default). */
const SuccessMessage = Schema.String.annotations({
  description: "What was done, in the caller's language (`Accept-Language`; Portuguese by default).",
  examples: ["Cursos encontrados."]
})

/** `{ success: true, message, data }`: the body of every successful answer. */
export const Ok = <S extends Schema.Schema.Any>(data: S) =>
  Schema.Struct({ success: Schema.Literal(true), message: SuccessMessage, data })

export const Pagination = Schema.Struct({
  limit: Schema.Number,
  nextCursor: Schema.NullOr(Schema.String)
})
export type Pagination = typeof Pagination.Type

/** A page of a keyset-paginated list. */
export const Page = <S extends Schema.Schema.Any>(item: S) =>
  Schema.Struct({
    success: Schema.Literal(true),
    message: SuccessMessage,
    data: Schema.Array(item),
    pagination: Pagination
  })

export const CreatedId = Schema.Struct({ id: Schema.String })

export const ErrorBody = Schema.Struct({
  success: Schema.Literal(false),
  code: Schema.String,
  message: Schema.String,
  errors: Schema.optional(
    Schema.Array(
      Schema.Struct({
        param: Schema.String,
        msg: Schema.String,
        location: Schema.Literal("body", "query", "params", "headers")
      })
    )
  )
}).annotations({ identifier: "ErrorEnvelope" })
