import { HttpServerRequest } from "@effect/platform"
import { Effect, Schema } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount } from "../domain/Caller"
import { Ok } from "../domain/Envelope"
import { normalEmail } from "../domain/Fields"
import { AccountId } from "../domain/Ids"
import { clientAddress } from "../http/ClientAddress"
import { apiGroup } from "../http/engine/apiGroup"
import { plainJson } from "../http/engine/PlainJson"
import { rateLimited } from "../http/rateLimited"
import { ok, page } from "../http/Reply"
import { sha256Hex } from "../platform/bytes"
import { RateLimits } from "../platform/RateLimits"
import { MeAnswer, RegisterAnswer } from "./Api"
import { Identity } from "./Identity"
import { identityMessages, sessionMessages as M } from "./messages"
import { Sessions } from "./Sessions"

const meAnswer = plainJson(MeAnswer)
const registered = rateLimited(RegisterAnswer, { status: 201 })
const limitedEmpty = rateLimited(Ok(Schema.Null))

/** The key of per-client limits: the client address (an adapter that gives none: one shared key). */
const clientKey = Effect.map(clientAddress, (address) => address ?? "unknown")

const BEARER = /^Bearer ([^\s]+)$/

/** Who signs in: the client address, the user agent, and a token the client may already hold. */
const signInClient = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  return {
    clientAddress: yield* clientAddress,
    userAgent: request.headers["user-agent"],
    bearer: BEARER.exec(request.headers["authorization"] ?? "")?.[1]
  }
})

export const IdentityHttp = apiGroup(RodaApi, "identity", (handlers) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    const limits = yield* RateLimits
    const sessions = yield* Sessions
    return handlers
      .handle("register", ({ payload }) =>
        Effect.gen(function*() {
          yield* limits.enforce("register", yield* clientKey)
          const data = yield* identity.register(payload, yield* signInClient)
          return yield* ok(identityMessages.registered, data)
        }).pipe(registered))
      .handle("login", ({ payload }) =>
        Effect.gen(function*() {
          const data = yield* identity.login(payload, yield* signInClient)
          return yield* ok(identityMessages.loggedIn, data)
        }))
      .handle("me", () =>
        Effect.flatMap(CurrentAccount, (account) =>
          ok(identityMessages.accountFound, identity.me(account))).pipe(meAnswer))
      .handle("changePassword", ({ payload }) =>
        Effect.gen(function*() {
          yield* identity.changePassword(yield* CurrentAccount, payload, yield* clientAddress)
          return yield* ok(identityMessages.passwordChanged, null)
        }))
      .handle("recoveryPassword", ({ payload }) =>
        Effect.gen(function*() {
          // The target is counted for any address, registered or not (same statements, same answer).
          const send = yield* limits.recovery(yield* clientKey, sha256Hex(normalEmail(payload.email)))
          if (send) {
            yield* identity.recoverPassword(payload.email)
          }
          return yield* ok(identityMessages.recoverySent, null)
        }).pipe(limitedEmpty))
      .handle("setPassword", ({ payload }) =>
        identity.setPassword(payload).pipe(Effect.zipRight(ok(identityMessages.passwordSet, null))))
      .handle("confirmEmail", ({ payload }) =>
        identity.confirmEmail(payload).pipe(Effect.flatMap((data) =>
          ok(identityMessages.emailConfirmed, data)
        )))
      .handle("verifyEmail", () =>
        Effect.gen(function*() {
          const account = yield* CurrentAccount
          // Beyond the limit: the same answer and no e-mail (the caller's own count is in the headers).
          const state = yield* limits.check("verifyEmail", account.id)
          if (state === undefined || state.allowed) {
            yield* identity.requestVerification(account.id)
          }
          return yield* ok(identityMessages.verificationSent, null)
        }).pipe(limitedEmpty))
      .handle("sessions", ({ urlParams }) =>
        Effect.flatMap(CurrentAccount, (account) =>
          sessions.list(account, urlParams)).pipe(
            Effect.flatMap((result) =>
              page(M.sessionsFound, result)
            )
          ))
      .handle("endSession", ({ path }) =>
        Effect.flatMap(CurrentAccount, (account) =>
          sessions.end(account, path.id.toLowerCase())).pipe(
            Effect.zipRight(ok(M.sessionEnded, null))
          ))
      .handle("logout", () =>
        Effect.flatMap(CurrentAccount, sessions.logout).pipe(Effect.zipRight(ok(M.sessionEnded, null))))
      .handle("logoutAll", ({ payload }) =>
        Effect.flatMap(CurrentAccount, (account) =>
          sessions.logoutAll(account, payload.keepCurrent === true)).pipe(
            Effect.flatMap((data) =>
              ok(M.sessionsEnded, data)
            )
          ))
      .handle("endAccountSessions", ({ path }) =>
        Effect.flatMap(CurrentAccount, (account) =>
          sessions.endAllAsOperator(account, AccountId.make(path.id.toLowerCase()))).pipe(
            Effect.flatMap((data) =>
              ok(M.sessionsEnded, data)
            )
          ))
  }))
