import {
  type HttpApiEndpoint,
  HttpApiError,
  HttpApiSchema,
  HttpMethod,
  HttpRouter,
  HttpServerRequest,
  HttpServerResponse,
  Multipart,
  UrlParams
} from "@effect/platform"
import { Context, Effect, Option, ParseResult, Schema, type SchemaAST } from "effect"
import type { AppError } from "../../domain/AppError"
import { CurrentDeferredMember, CurrentDeferredVisitor } from "../../domain/Caller"

type AnyEffect = Effect.Effect<any, any, any>

/** What a handler is given: the request, and the decoded path, payload, headers and query. */
type Parts = { request: HttpServerRequest.HttpServerRequest } & Record<string, unknown>

const isResponse = Schema.declare(HttpServerResponse.isServerResponse)

/** The answer for one member of a success schema: its status, and its body in its encoding. */
const answerOf = (
  data: unknown,
  ast: SchemaAST.AST
): Effect.Effect<HttpServerResponse.HttpServerResponse, ParseResult.ParseIssue> => {
  const status = HttpApiSchema.getStatusSuccessAST(ast)
  if (HttpApiSchema.isVoid(ast)) return Effect.succeed(HttpServerResponse.empty({ status }))
  const { contentType, kind } = HttpApiSchema.getEncoding(ast)
  switch (kind) {
    case "Json":
      return Effect.mapError(
        HttpServerResponse.json(data, { status, contentType }),
        (error) => new ParseResult.Type(ast, error, "Could not encode to JSON")
      )
    case "Text":
      return Effect.succeed(HttpServerResponse.text(data as string, { status, contentType }))
    case "Uint8Array":
      return Effect.succeed(HttpServerResponse.uint8Array(data as Uint8Array, { status, contentType }))
    case "UrlParams":
      return Effect.succeed(HttpServerResponse.urlParams(data as UrlParams.Input, { status, contentType }))
  }
}

/** Encodes a handler's value by the endpoint's success schema (each member of a union with its own status). */
const successEncoder = (schema: Schema.Schema.Any) => {
  const members = new Set<Schema.Schema.Any>()
  HttpApiSchema.deunionize(members, schema)
  const asResponse = Array.from(members, (member) =>
    Schema.transformOrFail(isResponse, member, {
      decode: (value, _, ast) => ParseResult.fail(new ParseResult.Forbidden(ast, value, "Encode only schema")),
      encode: (data, _, ast) => answerOf(data, ast.to)
    }))
  return Schema.encode(
    Schema.Union(...asResponse) as unknown as Schema.Schema<unknown, HttpServerResponse.HttpServerResponse>
  )
}

const isSingleString = (ast: SchemaAST.AST, key?: PropertyKey): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "Literal":
    case "TemplateLiteral":
    case "Enums":
      return true
    case "TypeLiteral": {
      if (key === undefined) return false
      const property = ast.propertySignatures.find((signature) => signature.name === key)
      return property !== undefined
        ? isSingleString(property.type, key)
        : ast.indexSignatures.some((index) =>
          Schema.is(Schema.make(index.parameter))(key) && isSingleString(index.type)
        )
    }
    case "Union":
      return ast.types.some((type) => isSingleString(type, key))
    case "Suspend":
      return isSingleString(ast.f(), key)
    case "Refinement":
    case "Transformation":
      return isSingleString(ast.from, key)
    default:
      return false
  }
}

/** A query value the schema wants as a list is given as one, even when the query names it once. */
const queryFor = (params: Readonly<Record<string, string | Array<string>>>, ast: SchemaAST.AST) => {
  const query: Record<string, string | Array<string>> = {}
  for (const key in params) {
    const value = params[key]!
    query[key] = Array.isArray(value) || isSingleString(ast, key) ? value : [value]
  }
  return query
}

/** The body as its content type says (JSON when none is given); a request without a body gives its query. */
const bodyOf = (
  request: HttpServerRequest.HttpServerRequest,
  query: Readonly<Record<string, string | Array<string>>>,
  limits: Option.Option<Multipart.withLimits.Options>
): AnyEffect => {
  if (!HttpMethod.hasBody(request.method)) return Effect.succeed(query)
  const contentType = request.headers["content-type"]?.toLowerCase().trim() ?? "application/json"
  if (contentType.includes("application/json")) return Effect.orDie(request.json)
  if (contentType.includes("multipart/form-data")) {
    return Effect.orDie(Option.match(limits, {
      onNone: () => request.multipart,
      onSome: (options) => Multipart.withLimits(request.multipart, options)
    }))
  }
  if (contentType.includes("x-www-form-urlencoded")) {
    return Effect.map(Effect.orDie(request.urlParamsBody), UrlParams.toRecord)
  }
  if (contentType.startsWith("text/")) return Effect.orDie(request.text)
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer))
}

type Decoder = (parts: Parts, context: Context.Context<never>) => AnyEffect

/**
 * The effect that answers one endpoint, as `HttpApiBuilder` builds it: path, payload, headers and
 * query decoded by the endpoint's schemas in that order (a parse failure becomes the API's decode
 * error), the handler, then its value encoded by the success schema unless it is already a response.
 * Each decoder is chosen once here, so a request runs only the ones its endpoint declares.
 */
export const endpointEffect = (
  endpoint: HttpApiEndpoint.HttpApiEndpoint.AnyWithProps,
  handler: (parts: Parts) => AnyEffect,
  fullRequest: boolean
): AnyEffect => {
  const payload = Option.getOrUndefined(endpoint.payloadSchema)
  const multipartStream = payload !== undefined && HttpApiSchema.getMultipartStream(payload.ast) !== undefined
  const limits = Option.fromNullable(
    payload && (HttpApiSchema.getMultipart(payload.ast) ?? HttpApiSchema.getMultipartStream(payload.ast))
  )
  const decoders: Array<Decoder> = []
  if (Option.isSome(endpoint.pathSchema)) {
    const decode = Schema.decodeUnknown(endpoint.pathSchema.value)
    decoders.push((parts, context) =>
      Effect.map(decode(Context.unsafeGet(context, HttpRouter.RouteContext).params), (path) => {
        parts.path = path
      })
    )
  }
  if (payload !== undefined && multipartStream) {
    decoders.push((parts) =>
      Effect.sync(() => {
        parts.payload = Option.match(limits, {
          onNone: () => parts.request.multipartStream,
          onSome: (options) => Multipart.withLimitsStream(parts.request.multipartStream, options)
        })
      })
    )
  } else if (payload !== undefined && !fullRequest) {
    const decode = Schema.decodeUnknown(payload)
    decoders.push((parts, context) =>
      Effect.map(
        Effect.flatMap(
          bodyOf(parts.request, Context.unsafeGet(context, HttpServerRequest.ParsedSearchParams), limits),
          decode
        ),
        (value) => {
          parts.payload = value
        }
      )
    )
  }
  if (Option.isSome(endpoint.headersSchema)) {
    const decode = Schema.decodeUnknown(endpoint.headersSchema.value)
    decoders.push((parts) =>
      Effect.map(decode(parts.request.headers), (headers) => {
        parts.headers = headers
      })
    )
  }
  if (Option.isSome(endpoint.urlParamsSchema)) {
    const schema = endpoint.urlParamsSchema.value
    const decode = Schema.decodeUnknown(schema)
    decoders.push((parts, context) =>
      Effect.map(
        decode(queryFor(Context.unsafeGet(context, HttpServerRequest.ParsedSearchParams), schema.ast)),
        (query) => {
          parts.urlParams = query
        }
      )
    )
  }
  const encode = successEncoder(endpoint.successSchema)
  const answer = (parts: Parts) =>
    Effect.flatMap(
      handler(parts),
      (value) => HttpServerResponse.isServerResponse(value) ? Effect.succeed(value) : encode(value)
    )
  return Effect.catchIf(
    Effect.withFiberRuntime<unknown, unknown, unknown>((fiber) => {
      const context = fiber.currentContext
      const parts: Parts = { request: Context.unsafeGet(context, HttpServerRequest.HttpServerRequest) }
      let run: AnyEffect = Effect.suspend(() => answer(parts))
      for (let i = decoders.length - 1; i >= 0; i--) run = Effect.zipRight(decoders[i]!(parts, context), run)
      return run
    }),
    ParseResult.isParseError,
    decodeFailure
  )
}

/** The caller a deferred scope left to the route's statement, to read on a path that runs none. */
const unsettledCaller = Effect.map(
  Effect.all([Effect.serviceOption(CurrentDeferredMember), Effect.serviceOption(CurrentDeferredVisitor)]),
  ([member, visitor]): Effect.Effect<unknown, AppError> | undefined => {
    if (Option.isSome(member) && Option.isNone(member.value.member)) return member.value.settle
    if (Option.isSome(visitor) && visitor.value._tag === "Deferred") return visitor.value.settle
    return undefined
  }
)

/**
 * A request whose input does not decode: 400, after the caller a deferred scope left to the route's
 * statement (a caller without a membership or an account gets the scope's 401 or 403 first, as on
 * any route of that scope).
 */
const decodeFailure = (error: ParseResult.ParseError) =>
  Effect.flatMap(unsettledCaller, (settle) => {
    const refail = HttpApiError.HttpApiDecodeError.refailParseError(error)
    return settle === undefined ? refail : Effect.zipRight(settle, refail)
  })
