import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount } from "../domain/Caller"
import { Messages } from "../domain/Messages"
import { apiGroup } from "../http/apiGroup"
import { clientAddress } from "../http/ClientAddress"
import { plainJson } from "../http/PlainJson"
import { ok, page } from "../http/Reply"
import { MeAnswer } from "./Api"
import { Identity } from "./Identity"
import { sessionMessages as M } from "./messages"
import { Sessions } from "./Sessions"

const meAnswer = plainJson(MeAnswer)

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
    const sessions = yield* Sessions
    return handlers
      .handle("register", ({ payload }) =>
        Effect.gen(function*() {
          const data = yield* identity.register(payload, yield* signInClient)
          return yield* ok(Messages.registered, data)
        }))
      .handle("login", ({ payload }) =>
        Effect.gen(function*() {
          const data = yield* identity.login(payload, yield* signInClient)
          return yield* ok(Messages.loggedIn, data)
        }))
      .handle("me", () =>
        Effect.flatMap(CurrentAccount, (account) => ok(Messages.accountFound, identity.me(account))).pipe(meAnswer))
      .handle("changePassword", ({ payload }) =>
        Effect.gen(function*() {
          yield* identity.changePassword(yield* CurrentAccount, payload, yield* clientAddress)
          return yield* ok(Messages.passwordChanged, null)
        }))
      .handle("recoveryPassword", ({ payload }) =>
        identity.recoverPassword(payload.email).pipe(Effect.zipRight(ok(Messages.recoverySent, null))))
      .handle("setPassword", ({ payload }) =>
        identity.setPassword(payload).pipe(Effect.zipRight(ok(Messages.passwordSet, null))))
      .handle("confirmEmail", ({ payload }) =>
        identity.confirmEmail(payload).pipe(Effect.flatMap((data) =>
          ok(Messages.emailConfirmed, data)
        )))
      .handle("verifyEmail", () =>
        Effect.flatMap(CurrentAccount, (account) =>
          identity.requestVerification(account.id)).pipe(
            Effect.zipRight(ok(Messages.verificationSent, null))
          ))
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
          sessions.endAllAsOperator(account, path.id.toLowerCase())).pipe(
            Effect.flatMap((data) =>
              ok(M.sessionsEnded, data)
            )
          ))
  }))
