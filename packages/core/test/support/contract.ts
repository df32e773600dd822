import type { HttpClientResponse } from "@effect/platform"
import { makeRodaClient, type RodaClient } from "@roda/client"
import { Cause, Effect, Exit, Schema } from "effect"
import { expect } from "vitest"
import { AppError, type ErrorLocation } from "../../src/domain/AppError"
import { ErrorBody } from "../../src/domain/Envelope"
import type { Roda } from "../../src/index"
import { expectError, expectInvalid } from "./envelope"
import type { Reply } from "./harness"
import { handlerHttpClient } from "./inProcess"

/**
 * The typed client of `@roda/client` over `roda.handler` (no socket): tests that speak the contract.
 * Payloads, parameters and answers are the contract's types; an answer that does not decode fails
 * the test. Input the contract's own types cannot express (a malformed id, untrimmed text, a missing
 * field) is sent raw, with `client(roda)` of harness.ts.
 */
export const contract = (roda: Roda) => {
  const httpClient = handlerHttpClient(roda)
  // Making a client walks the whole contract (a decoder per route: most of a second on a busy machine),
  // and a client holds no state: one per set of options.
  const clients = new Map<string, RodaClient>()
  const clientOf = (options: Omit<Parameters<typeof makeRodaClient>[0], "baseUrl">): RodaClient => {
    const key = JSON.stringify([
      options.token,
      options.apiKey,
      options.communityId,
      options.profileId,
      options.language
    ])
    const known = clients.get(key)
    if (known !== undefined) return known
    const made = Effect.runSync(
      makeRodaClient({ baseUrl: "http://roda.test", ...options } as Parameters<typeof makeRodaClient>[0]).pipe(
        Effect.provide(httpClient)
      )
    )
    clients.set(key, made)
    return made
  }
  return {
    /** `user` acting in `community` (token and X-CommunityId). */
    as: (user: { readonly token: string }, community?: { readonly id: string }): RodaClient =>
      clientOf({ token: user.token, communityId: community?.id }),
    /** No token; in `community` when given (the public routes). */
    anonymous: (community?: { readonly id: string }): RodaClient => clientOf({ communityId: community?.id }),
    clientOf
  }
}

/** What `contract(roda)` gives: clients of the typed contract over one instance. */
export type Contract = ReturnType<typeof contract>

const describeFailure = (cause: Cause.Cause<unknown>) => {
  const failure = Cause.failureOption(cause)
  if (failure._tag === "Some" && failure.value instanceof AppError) {
    return `AppError ${failure.value.status} ${JSON.stringify(failure.value.text.pt)} ${
      JSON.stringify(failure.value.errors ?? [])
    }`
  }
  return Cause.pretty(cause)
}

/** The call's answer; the test fails naming the error otherwise. */
export const ok = async <A, E>(call: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(call)
  if (Exit.isFailure(exit)) throw new Error(`expected a success, got ${describeFailure(exit.cause)}`)
  return exit.value
}

/**
 * The call fails with the error envelope at `status` (and exactly `message`, when given: the message
 * arrives in the caller's language, Portuguese by default, and stands for both in the decoded error).
 */
export const fails = async <A, E>(call: Effect.Effect<A, E>, status: number, message?: string): Promise<AppError> => {
  const exit = await Effect.runPromiseExit(call)
  if (Exit.isSuccess(exit)) throw new Error(`expected a ${status}, got a success: ${JSON.stringify(exit.value)}`)
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "None" || !(failure.value instanceof AppError)) {
    throw new Error(`expected a ${status}, got ${describeFailure(exit.cause)}`)
  }
  expect({ status: failure.value.status, message: failure.value.text.pt }).toEqual({
    status,
    message: message ?? failure.value.text.pt
  })
  return failure.value
}

/** A 400 whose `errors[]` names `param` at `location`. */
export const invalid = async <A, E>(call: Effect.Effect<A, E>, param: string, location: ErrorLocation = "body") => {
  const error = await fails(call, 400)
  expect(error.errors).toEqual(expect.arrayContaining([expect.objectContaining({ param, location })]))
  return error
}

/** The answer of a call made with `withResponse: true`, answered with exactly `status`. */
export const okAt = async <A, E>(
  call: Effect.Effect<readonly [A, HttpClientResponse.HttpClientResponse], E>,
  status: number
): Promise<A> => {
  const [answer, response] = await ok(call)
  expect(response.status).toBe(status)
  return answer
}

/**
 * The status a call was answered with (made with `withResponse: true`): its success's, or its
 * AppError's. For calls raced against each other, where either outcome may be right.
 */
export const statusOf = async <A, E>(
  call: Effect.Effect<readonly [A, HttpClientResponse.HttpClientResponse], E>
): Promise<number> => {
  const exit = await Effect.runPromiseExit(call)
  if (Exit.isSuccess(exit)) return exit.value[1].status
  const failure = Cause.failureOption(exit.cause)
  if (failure._tag === "Some" && failure.value instanceof AppError) return failure.value.status
  throw new Error(`expected an answer, got ${describeFailure(exit.cause)}`)
}

/** The error envelope of the contract, as a raw reply carries it (with its `code`). */
export type ErrorEnvelope = typeof ErrorBody.Type

const decodeErrorBody = Schema.decodeUnknownSync(ErrorBody)

/**
 * A raw reply (`client(roda)` of harness.ts: input the contract's types cannot express) that is the
 * error envelope at `status` (and exactly `message`, when given), read as the contract's envelope.
 */
export const rawFails = (reply: Reply, status: number, message?: string): ErrorEnvelope => {
  expectError(reply, status, message)
  return decodeErrorBody(reply.body, { onExcessProperty: "error" })
}

/** A raw reply that is a 400 whose `errors[]` names `param` at `location`, read as the contract's envelope. */
export const rawInvalid = (reply: Reply, param: string, location: ErrorLocation = "body"): ErrorEnvelope => {
  expectInvalid(reply, param, location)
  return decodeErrorBody(reply.body, { onExcessProperty: "error" })
}
