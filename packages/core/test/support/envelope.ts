import { Schema } from "effect"
import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import type { Reply } from "./harness"

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** A short lower-case tag that keeps names, slugs and domains unique in the database a file's tests share. */
export const uniqueTag = () => randomUUID().replace(/-/g, "").slice(0, 10)

/** A well-formed id that names nothing. */
export const unknownId = () => randomUUID()

/** `{ success: true, message, data }` with the given status (and message, when given); returns `data`. */
export const expectOk = (reply: Reply, status = 200, message?: string): any => {
  expect({ status: reply.status, body: reply.body }).toMatchObject({ status, body: { success: true } })
  expect(typeof reply.body.message).toBe("string")
  if (message !== undefined) expect(reply.body.message).toBe(message)
  expect(reply.body).toHaveProperty("data")
  return reply.body.data
}

/**
 * A body a route answered with `plainJson` (no encoding pass) is what the schema's encoding would
 * have answered, to the byte: no field the schema does not name, the same types, the same key order.
 */
export const expectPlainJson = (schema: Schema.Schema.Any, body: unknown) => {
  const encoded = Schema.encodeUnknownSync(schema as Schema.Schema<unknown, unknown>)(body, {
    onExcessProperty: "error"
  })
  expect(JSON.stringify(encoded)).toBe(JSON.stringify(body))
}

/** A 201 whose `data.id` is a UUID; returns `data`. */
export const expectCreated = (reply: Reply, message?: string): any => {
  const data = expectOk(reply, 201, message)
  expect(data.id).toMatch(UUID)
  return data
}

/** The error envelope with this status (and exact message, when given). */
export const expectError = (reply: Reply, status: number, message?: string) => {
  expect({ status: reply.status, success: reply.body?.success }).toEqual({ status, success: false })
  expect(typeof reply.body.message).toBe("string")
  // Every error body names what happened with a stable code (issue 53).
  expect(reply.body.code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/)
  if (message !== undefined) expect(reply.body.message).toBe(message)
  return reply.body
}

/** A 400 whose `errors` names `param` at `location`. */
export const expectInvalid = (
  reply: Reply,
  param: string,
  location: "body" | "query" | "params" | "headers" = "body"
) => {
  const body = expectError(reply, 400)
  expect(Array.isArray(body.errors)).toBe(true)
  expect(body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ param, location })]))
  for (const error of body.errors) expect(typeof error.msg).toBe("string")
  return body
}

export const roleRequired = (roles: ReadonlyArray<string>, actual: string) =>
  `Função necessária: ${roles.join(" ou ")}. Sua função: ${actual}`
