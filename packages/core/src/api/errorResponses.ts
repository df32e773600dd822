/**
 * The error answers of each operation as one envelope per status. An operation declares its failures
 * kind by kind (its handler's, its scope's, the request machinery's: `http/requestFailures.ts`), and
 * each is documented as the envelope with its codes; here those of one status become one schema
 * whose `code` lists them all, and the shared parts (`ErrorEnvelope` fields) are written once, under
 * `components`, so the document says per operation only what differs: which codes it can answer.
 */
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

export const mergeErrorResponses = <Spec extends { paths: Json; components?: Json }>(spec: Spec): Spec => {
  let fieldError: Json | undefined
  for (const operations of Object.values(spec.paths)) {
    for (const operation of Object.values(operations as Json)) {
      for (const [status, response] of Object.entries((operation as Json)?.responses ?? {})) {
        if (Number(status) < 400) continue
        const media = (response as Json).content?.["application/json"]
        const schema = media?.schema as Json | undefined
        if (schema === undefined) continue
        const members: Array<Json> = Array.isArray(schema.anyOf) ? schema.anyOf : [schema]
        const own = members.filter((member) => !isEnvelope(member))
        if (own.length > 0) {
          // an operation with an error model of its own (OAuth's RFC 6749 bodies) answers in it, the
          // request machinery's failures too (`errorBody.ts` `oauthErrorBody`)
          if (own.length < members.length) media.schema = own.length === 1 ? own[0] : { ...schema, anyOf: own }
          continue
        }
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
