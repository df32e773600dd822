import type { SqlClient } from "@effect/sql"
import { Clock, type Context, Effect, Option } from "effect"
import { conflict, gone, unauthorized } from "../domain/AppError"
import { normalEmail } from "../domain/Fields"
import { AccountId } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import type { Mailer } from "../platform/Mailer"
import { uniqueViolation } from "../sql/errors"
import { transactional } from "../sql/transaction"
import { identityMessages as M } from "./messages"
import {
  type AccountRow,
  type AccountsRepo,
  closedByEmailChange,
  emailPurposes,
  type LinkPurpose,
  type PasswordLinkRow
} from "./Repo"
import type { Sessions } from "./Sessions"

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

interface Deps<LinkError, PasswordError> {
  readonly sql: SqlClient.SqlClient
  readonly repo: AccountsRepo
  readonly mailer: Context.Tag.Service<typeof Mailer>
  readonly sessions: Sessions
  readonly issueLink: (accountId: AccountId, purpose: LinkPurpose, email: string) => Effect.Effect<string>
  readonly openLink: (
    input: { id: AccountId; token: string },
    purposes: ReadonlyArray<LinkPurpose>
  ) => Effect.Effect<{ link: PasswordLinkRow; at: Date }, LinkError>
  readonly checkCurrentPassword: (
    accountId: AccountId,
    password: string,
    clientAddress: string | undefined
  ) => Effect.Effect<AccountRow, PasswordError>
}

/**
 * The login e-mail's links: a change (asked with the current password, confirmed from the new
 * address, and taken back from the old one), and a verification of the current address.
 */
export const makeEmailFlows = <LinkError, PasswordError>(
  { checkCurrentPassword, issueLink, mailer, openLink, repo, sessions, sql }: Deps<LinkError, PasswordError>
) => {
  const emailTakenOr = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
    Effect.catchAll(
      effect,
      (error) => uniqueViolation(error) !== undefined ? Effect.fail(conflict(M.emailTaken)) : Effect.die(error)
    )

  /**
   * Only the holder asks, with the current password (checked and limited as change-password checks
   * it): the new address gets a confirmation link (24 hours); the old one a notice with a link
   * (7 days) that takes the change back and ends every session and OAuth grant of the account.
   * Nothing changes until the confirmation link is used (`confirmEmail`). 409 when another account
   * has the address.
   */
  const requestEmailChange = (
    accountId: AccountId,
    input: { email: string; currentPassword: string },
    clientAddress: string | undefined
  ) =>
    Effect.gen(function*() {
      const account = yield* checkCurrentPassword(accountId, input.currentPassword, clientAddress)
      const wanted = normalEmail(input.email)
      if (wanted === normalEmail(account.email)) return { pendingEmail: null }
      const owner = yield* repo.findByEmail(wanted)
      if (Option.isSome(owner)) return yield* Effect.fail(conflict(M.emailTaken))
      const { confirm, undo } = yield* transactional(sql)(
        Effect.gen(function*() {
          yield* repo.closeLinks(accountId, yield* now, ["email-change"])
          return {
            confirm: yield* issueLink(accountId, "email-change", wanted),
            undo: yield* issueLink(accountId, "email-undo", account.email)
          }
        })
      )
      yield* mailer.send({
        to: wanted,
        kind: "email-change",
        subject: "Confirme seu novo e-mail / Confirm your new e-mail",
        text: `Para usar este endereço no login, confirme pelo link (válido por 24 horas):\n${confirm}\n\n` +
          `To sign in with this address, confirm it with this link (valid for 24 hours):\n${confirm}\n`
      })
      yield* mailer.send({
        to: account.email,
        kind: "email-change-notice",
        subject: "Pedido de troca de e-mail / E-mail change requested",
        text: `Foi pedido trocar o e-mail de login da sua conta para ${wanted}. ` +
          `Se não foi você, use este link (válido por 7 dias): ele devolve o login a este endereço e ` +
          `encerra todas as sessões e conexões de assistentes da conta. Depois, redefina sua senha.\n${undo}\n\n` +
          `A change of your account's login e-mail to ${wanted} was requested. ` +
          `If this was not you, use this link (valid for 7 days): it gives the login back to this address and ` +
          `ends every session and assistant connection of the account. Then reset your password.\n${undo}\n`
      })
      return { pendingEmail: wanted }
    }).pipe(Effect.withSpan("Identity.requestEmailChange"))

  /** A link to the account's current address that verifies it when used (`confirmEmail`). */
  /** A `verify-email` link to `email`, e-mailed through the outbox (in the caller's transaction). */
  const sendVerification = (accountId: AccountId, email: string) =>
    Effect.gen(function*() {
      const link = yield* issueLink(accountId, "verify-email", email)
      yield* mailer.send({
        to: email,
        kind: "verify-email",
        subject: "Confirme seu e-mail / Confirm your e-mail",
        text: `Confirme seu e-mail pelo link (válido por 24 horas):\n${link}\n\n` +
          `Confirm your e-mail with this link (valid for 24 hours):\n${link}\n`
      })
    })

  const requestVerification = (accountId: AccountId) =>
    Effect.gen(function*() {
      const account = yield* repo.findById(accountId)
      if (Option.isNone(account)) return yield* Effect.fail(unauthorized(Messages.tokenInvalid))
      if (account.value.emailVerifiedAt !== null) return
      yield* sendVerification(accountId, account.value.email)
    }).pipe(Effect.withSpan("Identity.requestVerification"))

  /**
   * Uses an e-mail link: an `email-change` link makes its address the login (409 if another account
   * took it meanwhile) and closes every other open link but the undo links; a `verify-email` link
   * verifies the address it was sent to, if still the account's (else 410); an `email-undo` link
   * gives the login back to the old address it was sent to (verified: 409 if another account took
   * it), closes the account's other open links (a pending change too) and ends every session and
   * OAuth grant of the account. Only the link used is consumed: an undo link sent later to an
   * address the change led to cannot close the holder's.
   */
  const confirmEmail = (input: { id: string; token: string }) =>
    Effect.gen(function*() {
      const id = AccountId.make(input.id)
      const { at, link } = yield* openLink({ id, token: input.token }, emailPurposes)
      const account = yield* repo.findById(id)
      if (Option.isNone(account) || link.email === null) return yield* Effect.fail(gone(M.linkExpired))
      const sentTo = link.email
      if (link.purpose === "verify-email" && normalEmail(account.value.email) !== sentTo) {
        return yield* Effect.fail(gone(M.linkExpired))
      }
      yield* transactional(sql)(
        Effect.gen(function*() {
          const consumed = link.purpose === "email-undo"
            ? yield* repo.consumeLink(id, link.id, at)
            : yield* repo.consumeLinks(id, link.id, at, [link.purpose])
          if (!consumed) return yield* Effect.fail(gone(M.linkExpired))
          yield* emailTakenOr(repo.setVerifiedEmail(id, sentTo, at))
          if (link.purpose !== "verify-email") yield* repo.closeLinks(id, at, closedByEmailChange)
          if (link.purpose === "email-undo") yield* sessions.endEverything(id, "e-mail change taken back")
        })
      )
      return { email: sentTo }
    }).pipe(Effect.withSpan("Identity.confirmEmail"))

  return { requestEmailChange, requestVerification, sendVerification, confirmEmail }
}
