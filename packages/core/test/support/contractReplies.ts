import { FetchHttpClient, HttpClient, HttpClientRequest } from "@effect/platform"
import { makeRodaClient, type RodaClient, type RodaClientOptions, rodaHeaders } from "@roda/client"
import { Cause, Effect, Exit, FiberRef, Layer, Schema } from "effect"
import { expect } from "vitest"
import { AppError } from "../../src/domain/AppError"
import { ErrorBody } from "../../src/domain/Envelope"
import type { Roda } from "../../src/index"
import type { Reply } from "./harness"

/**
 * The typed client's answers as they came over the wire, and typed readings of raw replies.
 *
 * The typed client decodes an answer into the contract's types and keeps nothing else: not the
 * error's `code`, not the headers (`Retry-After`), not a field the contract does not name. The clients
 * of `wireContract` keep the last answer of each call in the calling fiber, so `okReply` and
 * `failsReply` can assert those too. Raw replies (`client(roda)` of harness.ts, for input the contract
 * cannot express) are read through `bodyOf`, `okBody` and `errorBody`: never as `any`. A call made
 * `from` a client address (and extra headers) is what sign-in throttling and sessions see.
 */

/** An answer as it came over the wire (the JSON body parsed, not decoded). */
export interface WireReply {
  readonly status: number
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: unknown
}

export type ErrorEnvelope = typeof ErrorBody.Type

const lastReply = FiberRef.unsafeMake<WireReply | undefined>(undefined)

const parsed = (text: string): unknown => {
  try {
    return text === "" ? undefined : JSON.parse(text)
  } catch {
    return text
  }
}

/** Who a call comes from, beyond what the client sends: the caller's address and extra headers. */
interface CallSource {
  readonly clientAddress?: string | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
}

const callSource = FiberRef.unsafeMake<CallSource>({})
// Carries the caller's address from the request to the handler's `clientAddress` (never sent on).
const ADDRESS_HEADER = "x-roda-test-client-address"

const withSource = <A, E, R>(call: Effect.Effect<A, E, R>, source: CallSource): Effect.Effect<A, E, R> =>
  Effect.locallyWith(call, callSource, (outer) => ({
    clientAddress: source.clientAddress ?? outer.clientAddress,
    headers: { ...outer.headers, ...source.headers }
  }))

/** `call` made from `source.clientAddress` (as sign-in throttling sees it), with `source.headers` added. */
export const from = <A, E, R>(source: CallSource, call: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  withSource(call, source)

const handlerFetchFrom = (roda: Roda): typeof fetch => (input, init) => {
  const request = new Request(input, init)
  const clientAddress = request.headers.get(ADDRESS_HEADER) ?? "127.0.0.1"
  const headers = new Headers(request.headers)
  headers.delete(ADDRESS_HEADER)
  return roda.handler(new Request(request, { headers }), { clientAddress })
}

const recordingHttpClient = (roda: Roda) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (httpClient) =>
      httpClient.pipe(
        HttpClient.mapRequestEffect((request) =>
          Effect.map(FiberRef.get(callSource), (source) =>
            HttpClientRequest.setHeaders(request, {
              ...source.headers,
              ...(source.clientAddress === undefined ? {} : { [ADDRESS_HEADER]: source.clientAddress })
            }))
        ),
        // A body is read once: this reads it as `HttpApiClient` does (`arrayBuffer`, cached), so the
        // client decodes the same bytes afterwards.
        HttpClient.tap((response) =>
          Effect.flatMap(
            Effect.orElseSucceed(response.arrayBuffer, () => new ArrayBuffer(0)),
            (bytes) =>
              FiberRef.set(lastReply, {
                status: response.status,
                headers: response.headers,
                body: parsed(new TextDecoder().decode(bytes))
              })
          )
        )
      ))
  ).pipe(
    Layer.provide(
      FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, handlerFetchFrom(roda))))
    )
  )

type ClientOptions = Omit<RodaClientOptions, "baseUrl">

const contracts = new WeakMap<Roda, ReturnType<typeof makeWireContract>>()

/** `client` whose every call sends `headers` (the credentials of one caller). */
const sendingAs = (client: RodaClient, headers: Readonly<Record<string, string>>): RodaClient => {
  const calls = (group: object) =>
    new Proxy(group, {
      get: (target, name) => {
        const method: unknown = Reflect.get(target, name)
        return typeof method === "function"
          ? (...args: Array<unknown>) =>
            withSource(method.apply(target, args) as Effect.Effect<unknown, unknown>, { headers })
          : method
      }
    })
  return new Proxy(client, {
    get: (target, name) => {
      const member: unknown = Reflect.get(target, name)
      return typeof member === "object" && member !== null ? calls(member) : member
    }
  })
}

const makeWireContract = (roda: Roda) => {
  // Making a client of the whole contract is slow (about 0.1 to 1 s): one per Roda, whose calls
  // carry each caller's headers.
  const client = Effect.runSync(
    makeRodaClient({ baseUrl: "http://roda.test" }).pipe(Effect.provide(recordingHttpClient(roda)))
  )
  const clientOf = (clientOptions: ClientOptions): RodaClient =>
    sendingAs(client, rodaHeaders({ baseUrl: "http://roda.test", ...clientOptions } as RodaClientOptions))
  return {
    /** `user` acting in `community` (token and X-CommunityId). */
    as: (user: { readonly token: string }, community?: { readonly id: string }): RodaClient =>
      clientOf({ token: user.token, communityId: community?.id }),
    /** No token; in `community` when given. */
    anonymous: (community?: { readonly id: string }): RodaClient => clientOf({ communityId: community?.id }),
    clientOf
  }
}

/**
 * `contract(roda)` of contract.ts whose clients keep their answers for `okReply`/`failsReply` (one
 * per Roda, kept). Calls come from 127.0.0.1 unless made `from` another address.
 */
export const wireContract = (roda: Roda) => {
  const known = contracts.get(roda)
  if (known !== undefined) return known
  const made = makeWireContract(roda)
  contracts.set(roda, made)
  return made
}

/** A typed call's outcome: the decoded answer or error, and the answer as it came over the wire. */
export interface Answer<A, E> {
  readonly exit: Exit.Exit<A, E>
  readonly reply: WireReply
}

/** Runs a call of a `wireContract` client, success or failure (calls fired together keep their own answers). */
export const answerOf = async <A, E>(call: Effect.Effect<A, E>): Promise<Answer<A, E>> => {
  const [exit, reply] = await Effect.runPromise(Effect.all([Effect.exit(call), FiberRef.get(lastReply)]))
  if (reply === undefined) throw new Error("no answer recorded: call through a client of wireContract")
  return { exit, reply }
}

const describeFailure = (cause: Cause.Cause<unknown>, reply: WireReply) => {
  const failure = Cause.failureOption(cause)
  const wire = `${reply.status} ${JSON.stringify(reply.body)}`
  return failure._tag === "Some" && failure.value instanceof AppError ?
    `AppError ${wire}` :
    `${wire}\n${Cause.pretty(cause)}`
}

/** The answer succeeded (at `status`, when given): its decoded value and wire form. */
export const okOf = <A, E>({ exit, reply }: Answer<A, E>, status?: number) => {
  if (Exit.isFailure(exit)) throw new Error(`expected a success, got ${describeFailure(exit.cause, reply)}`)
  if (status !== undefined) expect(reply.status).toBe(status)
  return { data: exit.value, reply }
}

/** The call's decoded answer and its wire form (at `status`, when given); the test fails naming the error otherwise. */
export const okReply = async <A, E>(call: Effect.Effect<A, E>, status?: number) => okOf(await answerOf(call), status)

const decodeErrorBody = Schema.decodeUnknownSync(ErrorBody)

/** The error envelope (success false, a stable snake_case code, a message) of an answer. */
const errorEnvelopeOf = (body: unknown): ErrorEnvelope => {
  const envelope = decodeErrorBody(body, { onExcessProperty: "error" })
  // Every error body names what happened with a stable code (issue 53).
  expect(envelope.code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/)
  return envelope
}

/**
 * The answer is the error envelope at `status` (and exactly `message`, when given), with a stable
 * `code`: the decoded error, the envelope as sent and the wire reply (its headers).
 */
export const failsOf = <A, E>({ exit, reply }: Answer<A, E>, status: number, message?: string) => {
  if (Exit.isSuccess(exit)) throw new Error(`expected a ${status}, got a success: ${JSON.stringify(reply.body)}`)
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "None" || !(failure.value instanceof AppError)) {
    throw new Error(`expected a ${status}, got ${describeFailure(exit.cause, reply)}`)
  }
  expect({ status: failure.value.status, message: failure.value.text.pt }).toEqual({
    status,
    message: message ?? failure.value.text.pt
  })
  expect(reply.status).toBe(status)
  return { error: failure.value, body: errorEnvelopeOf(reply.body), reply }
}

/** The call fails with the error envelope at `status` (and exactly `message`, when given): see `failsOf`. */
export const failsReply = async <A, E>(call: Effect.Effect<A, E>, status: number, message?: string) =>
  failsOf(await answerOf(call), status, message)

/** A 400 through the typed client whose `errors[]` names `param` at `location`; returns the envelope. */
export const invalidReply = async <A, E>(
  call: Effect.Effect<A, E>,
  param: string,
  location: "body" | "query" | "params" | "headers" = "body"
) => {
  const { body } = await failsReply(call, 400)
  expect(body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ param, location })]))
  return body
}

/** The body of a raw reply, unread. */
export const bodyOf = (reply: Reply): unknown => reply.body

/**
 * A raw reply's `{ success: true, message, data }` at `status` (and `message`, when given), its
 * `data` decoded with `data` (the contract's schema of it).
 */
export const okBody = <A, I>(
  reply: Reply,
  data: Schema.Schema<A, I>,
  status = 200,
  message?: string
): A => {
  const envelope = Schema.decodeUnknownSync(
    Schema.Struct({ success: Schema.Literal(true), message: Schema.String, data: Schema.Unknown })
  )(bodyOf(reply))
  expect(reply.status).toBe(status)
  if (message !== undefined) expect(envelope.message).toBe(message)
  return Schema.decodeUnknownSync(data)(envelope.data)
}

/** A raw reply's error envelope at `status` (and exactly `message`, when given), with a stable `code`. */
export const errorBody = (reply: Reply, status: number, message?: string): ErrorEnvelope => {
  expect(reply.status).toBe(status)
  const envelope = errorEnvelopeOf(bodyOf(reply))
  if (message !== undefined) expect(envelope.message).toBe(message)
  return envelope
}

/** The status a typed call was answered with, success or failure. */
export const statusOf = async <A, E>(call: Effect.Effect<A, E>) => (await answerOf(call)).reply.status
