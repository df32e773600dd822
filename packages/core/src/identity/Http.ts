import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount } from "../domain/Caller"
import { Messages } from "../domain/Messages"
import { apiGroup } from "../http/apiGroup"
import { clientAddress } from "../http/ClientAddress"
import { plainJson } from "../http/PlainJson"
import { ok } from "../http/Reply"
import { MeAnswer } from "./Api"
import { Identity } from "./Identity"

const meAnswer = plainJson(MeAnswer)

export const IdentityHttp = apiGroup(RodaApi, "identity", (handlers) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    return handlers
      .handle("register", ({ payload }) =>
        Effect.flatMap(identity.register(payload), (data) => ok(Messages.registered, data)))
      .handle("login", ({ payload }) =>
        Effect.gen(function*() {
          const data = yield* identity.login(payload, yield* clientAddress)
          return yield* ok(Messages.loggedIn, data)
        }))
      .handle("me", () =>
        Effect.flatMap(CurrentAccount, (account) =>
          ok(Messages.accountFound, identity.me(account))).pipe(meAnswer))
      .handle("changePassword", ({ payload }) =>
        Effect.flatMap(CurrentAccount, (account) =>
          identity.changePassword(account, payload)).pipe(
            Effect.zipRight(ok(Messages.passwordChanged, null))
          ))
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
  }))
