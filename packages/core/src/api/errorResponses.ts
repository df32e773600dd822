/**
 * The error answers of each operation as one envelope per status. An operation declares its failures
 * kind by kind (its handler's, its scope's, the request machinery's: `http/requestFailures.ts`), and
 * each is documented as the envelope with its codes; here those of one status become one schema
 * whose `code` lists them all, and the shared parts (`ErrorEnvelope` fields) are written once, under
 * `components`, so the document says per operation only what differs: which codes it can answer.
 */
import { codeOfStatus } from "../oauth/ErrorsApi"

type Json = Record<string, any>

const ENVELOPE = "ErrorFieldError"

const isEnvelope = (schema: Json | undefined): schema is Json =>
  schema !== undefined && schema.type === "object" && Array.isArray(schema.properties?.code?.enum)

const envelopeWith = (codes: ReadonlyArray<string>, template: Json): Json => ({
  ...template,
  properties: {
    ...template.properties,
    code: { ...template.properties.code, enum: codes },
    ...(template.properties.errors === undefined
      ? {}
      : { errors: { ...template.properties.errors, items: { $ref: `#/components/schemas/${ENVELOPE}` } } })
  }
})

/** One envelope whose `code` is every code of `members` (each an envelope), or undefined. */
const merged = (members: ReadonlyArray<Json>): Json | undefined => {
  if (members.length === 0 || !members.every(isEnvelope)) return undefined
  const codes = [...new Set(members.flatMap((member) => member.properties.code.enum as Array<string>))].sort()
  return envelopeWith(codes, members[0]!)
}

/** An error body of RFC 6749 §5.2 (`{ error, error_description }`). */
const isOAuthBody = (schema: Json | undefined) => Array.isArray(schema?.properties?.error?.enum)

const oauthBody = (codes: ReadonlyArray<string>): Json => ({
  type: "object",
  required: ["error", "error_description"],
  properties: {
    error: { type: "string", enum: codes, description: "The RFC 6749 §5.2 error code" },
    error_description: { type: "string", description: "What was wrong, for the developer" }
  },
  additionalProperties: false
})

const errorSchemas = (operation: Json) =>
  Object.entries(operation?.responses ?? {}).flatMap(([status, response]) => {
    const media = (response as Json).content?.["application/json"]
    return Number(status) >= 400 && media?.schema !== undefined ? [{ status, media }] : []
  })

/**
 * An operation with an error model of its own (OAuth's RFC 6749 bodies) answers in it at every
 * status, the request machinery's failures too (`errorBody.ts` `oauthErrorBody`, whose code the
 * status decides): its envelopes become RFC bodies, and the bodies of one status one schema.
 */
const oauthResponses = (path: string, operation: Json) => {
  for (const { status, media } of errorSchemas(operation)) {
    const schema = media.schema as Json
    const members: Array<Json> = Array.isArray(schema.anyOf) ? schema.anyOf : [schema]
    const own = members.filter(isOAuthBody).flatMap((member) => member.properties.error.enum as Array<string>)
    media.schema = oauthBody(own.length > 0 ? [...new Set(own)] : [codeOfStatus(Number(status), path)])
  }
}

export const mergeErrorResponses = <Spec extends { paths: Json; components?: Json }>(spec: Spec): Spec => {
  let fieldError: Json | undefined
  for (const [path, operations] of Object.entries(spec.paths)) {
    for (const operation of Object.values(operations as Json)) {
      const schemas = errorSchemas(operation as Json)
      if (schemas.some(({ media }) => (media.schema.anyOf ?? [media.schema]).some(isOAuthBody))) {
        oauthResponses(path, operation as Json)
        continue
      }
      for (const { media } of schemas) {
        const schema = media.schema as Json
        const members: Array<Json> = Array.isArray(schema.anyOf) ? schema.anyOf : [schema]
        const one = merged(members)
        if (one === undefined) continue
        fieldError ??= members.find((member: Json) => member.properties.errors !== undefined)?.properties.errors.items
        media.schema = one
      }
    }
  }
  if (fieldError === undefined) return spec
  return {
    ...spec,
    components: { ...spec.components, schemas: { ...spec.components?.schemas, [ENVELOPE]: fieldError } }
  }
}
