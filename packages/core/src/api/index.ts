/**
 * `@roda/core/api`: the HTTP contract alone (endpoint definitions, their schemas and errors), for
 * clients. It imports no service, no SQL and no server platform, so a host's bundle that builds a
 * client from it does not carry the server (test/docs/apiEntry.test.ts keeps it so).
 */
export { AppError } from "../domain/AppError"
export type { ErrorLocation, FieldError } from "../domain/AppError"
export type { Language, Text } from "../domain/Text"
export { RodaApi } from "./RodaApi"
