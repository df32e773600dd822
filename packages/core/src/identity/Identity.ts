import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { badRequest, conflict, gone, tooManyRequests, unauthorized } from "../domain/AppError"
import type { Account } from "../domain/Caller"
import { Messages } from "../domain/Messages"
import { sha256Hex } from "../platform/bytes"
import { Ids } from "../platform/Ids"
import { Mailer } from "../platform/Mailer"
import { Options } from "../platform/Options"
import { Passwords } from "../platform/Passwords"
import { Tokens } from "../platform/Tokens"
import { traced } from "../platform/traced"
import { uniqueViolation } from "../sql/errors"
import { atomic, outsideTransaction, transactional } from "../sql/transaction"
import { type AccountRow, AccountsRepo, emailPurposes, type LinkPurpose, normalEmail, passwordPurposes } from "./Repo"

const HOUR = 60 * 60 * 1000
const linkLifetime: Record<LinkPurpose, number> = {
  recovery: HOUR,
  invite: 7 * 24 * HOUR,
  "email-change": 24 * HOUR,
  "verify-email": 24 * HOUR
}

const sha256 = sha256Hex

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

const summary = (account: Pick<AccountRow, "id" | "email" | "fullName">) => ({
  id: account.id,
  email: account.email,
  fullName: account.fullName
})

/** Accounts, sign-in, passwords and the single-use links that set them. */
export class Identity extends Effect.Service<Identity>()("@roda/core/Identity", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* AccountsRepo
    const ids = yield* Ids
    const passwords = yield* Passwords
    const tokens = yield* Tokens
    const mailer = yield* Mailer
    const options = yield* Options

    /**
     * Verified against when there is no password to check (see `login`). Hashed once, in the
     * background from the start: a start does not wait ~80 ms for it, and logins find it ready.
     */
    const decoyHash = yield* Effect.cached(Effect.flatMap(ids.secret(), passwords.hash))
    yield* Effect.forkDaemon(decoyHash)

    const adminEmails = new Set(options.platformAdminEmails.map(normalEmail))

    /** An operator: an e-mail listed in `PLATFORM_ADMIN_EMAILS` that its holder has proved, by using a link sent to it. */
    // Every request's caller goes through this: no normalising (NFC, ~1 µs) when no operator is listed.
    const isPlatformAdmin = (row: Pick<AccountRow, "email" | "emailVerifiedAt">) =>
      adminEmails.size > 0 && row.emailVerifiedAt !== null && adminEmails.has(normalEmail(row.email))

    type CallerRow = Pick<AccountRow, "id" | "email" | "fullName" | "emailVerifiedAt" | "createdAt">

    const toAccount = (row: CallerRow): Account => ({
      ...summary(row),
      isPlatformAdmin: isPlatformAdmin(row),
      emailVerified: row.emailVerifiedAt !== null,
      createdAt: row.createdAt
    })

    /** Creates an account; `password` null leaves it to be set through a link. */
    const createAccount = traced("Identity.createAccount")(function*(
      input: { email: string; fullName: string; password: string | null }
    ) {
      const id = yield* ids.next
      const passwordHash = input.password === null ? null : yield* passwords.hash(input.password)
      const row = { id, email: normalEmail(input.email), fullName: input.fullName, passwordHash }
      yield* repo.insert(row).pipe(
        Effect.catchAll((error) =>
          uniqueViolation(error) !== undefined ? Effect.fail(conflict(Messages.emailTaken)) : Effect.die(error)
        )
      )
      return { ...row, emailVerifiedAt: null, createdAt: yield* now }
    })

    /**
     * A single-use link e-mailed to `email`: `{publicBaseUrl}/set-password?id=…&token=…` for a
     * password, `{publicBaseUrl}/confirm-email?id=…&token=…` for an address.
     */
    const issueLink = (accountId: string, purpose: LinkPurpose, email: string) =>
      Effect.gen(function*() {
        const secret = yield* ids.secret()
        yield* repo.insertLink({
          id: yield* ids.next,
          accountId,
          purpose,
          email: normalEmail(email),
          secretHash: sha256(secret),
          expiresAt: new Date((yield* Clock.currentTimeMillis) + linkLifetime[purpose])
        })
        const url = new URL(
          passwordPurposes.includes(purpose) ? "/set-password" : "/confirm-email",
          options.publicBaseUrl
        )
        url.searchParams.set("id", accountId)
        url.searchParams.set("token", secret)
        return url.toString()
      })

    /** A single-use link to set the password, sent to the account's current address. */
    const issuePasswordLink = traced("Identity.issuePasswordLink")(
      function*(accountId: string, purpose: "invite" | "recovery") {
        const account = yield* repo.findById(accountId)
        if (Option.isNone(account)) return yield* Effect.dieMessage(`no account ${accountId}`)
        return yield* issueLink(accountId, purpose, account.value.email)
      }
    )

    /** A `verify-email` link to `email`, e-mailed through the outbox (in the caller's transaction). */
    const sendVerification = (accountId: string, email: string) =>
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

    /** The account, and its confirmation link e-mailed in the same transaction; sign-in works before it is used. */
    const register = traced("Identity.register")(function*(
      input: { fullName: string; email: string; password: string }
    ) {
      const row = yield* atomic(sql)(
        Effect.tap(createAccount(input), (created) => sendVerification(created.id, created.email))
      )
      const token = yield* tokens.issue({ accountId: row.id, email: row.email })
      return { ...summary(row), token }
    })

    /**
     * Sign-in limits: strict per account and client address (so guesses from elsewhere never lock the
     * holder out), much higher per account from everywhere, and per address over all accounts.
     */
    const throttleKeys = (email: string, clientAddress: string | undefined) => {
      const account = normalEmail(email)
      return [
        { key: `account-address:${account}|${clientAddress ?? "-"}`, limit: options.loginAttemptsPerAccount },
        { key: `account:${account}`, limit: options.loginAttemptsPerAccountGlobal ?? 100 },
        ...(clientAddress ? [{ key: `address:${clientAddress}`, limit: options.loginAttemptsPerAddress }] : [])
      ]
    }

    const login = traced("Identity.login")(function*(
      input: { email: string; password: string },
      clientAddress: string | undefined
    ) {
      const keys = throttleKeys(input.email, clientAddress)
      const at = yield* now
      // Each attempt is reserved before any hashing, one atomic statement per key: parallel guesses
      // cannot all pass a check made before the first of them is counted.
      const reserved: Array<string> = []
      for (const { key, limit } of keys) {
        if (yield* repo.reserveAttempt(key, limit, at, options.loginWindowSeconds)) {
          reserved.push(key)
          continue
        }
        yield* Effect.forEach(reserved, repo.releaseAttempt, { discard: true })
        const record = yield* repo.failuresOf(key)
        const retryAt = Option.match(record, {
          onNone: () => at.getTime() + 1000,
          onSome: (r) => r.windowStartedAt.getTime() + options.loginWindowSeconds * 1000
        })
        return yield* Effect.fail(tooManyRequests(Messages.tooManyAttempts, (retryAt - at.getTime()) / 1000))
      }
      const account = yield* repo.findByEmail(input.email)
      const stored = Option.isSome(account) ? account.value.passwordHash : null
      // An unknown e-mail costs the same hashing as a wrong password, so timing does not tell them apart.
      const matches = yield* passwords.verify(input.password, stored ?? (yield* decoyHash))
      const valid = stored !== null && matches
      // A failure keeps its reservation: it is the counted failure.
      if (!valid || Option.isNone(account)) return yield* Effect.fail(unauthorized(Messages.invalidCredentials))
      yield* repo.clearFailures(keys[0]!.key)
      yield* Effect.forEach(reserved.slice(1), repo.releaseAttempt, { discard: true })
      const token = yield* tokens.issue({ accountId: account.value.id, email: account.value.email })
      return { token, member: summary(account.value) }
    })

    const findAccount = (id: string) => Effect.map(repo.findById(id), Option.map(toAccount))

    /** The caller as the request's middleware read it (the account row, with the membership when scoped). */
    const me = (account: Account) => ({
      id: account.id,
      email: account.email,
      fullName: account.fullName,
      emailVerified: account.emailVerified,
      isPlatformAdmin: account.isPlatformAdmin,
      createdAt: account.createdAt.toISOString()
    })

    const changePassword = traced("Identity.changePassword")(function*(
      account: Account,
      input: { currentPassword: string; newPassword: string }
    ) {
      const row = yield* repo.findById(account.id)
      const matches = Option.isSome(row) && row.value.passwordHash !== null &&
        (yield* passwords.verify(input.currentPassword, row.value.passwordHash))
      if (!matches) {
        return yield* Effect.fail(
          badRequest(Messages.currentPasswordWrong, [
            { param: "currentPassword", msg: Messages.currentPasswordWrong, location: "body" }
          ])
        )
      }
      yield* repo.setPassword(account.id, yield* passwords.hash(input.newPassword))
    })

    /** The recovery e-mail, when the address is registered. */
    const sendRecovery = traced("Identity.sendRecovery")(function*(email: string) {
      const account = yield* repo.findByEmail(email)
      if (Option.isNone(account)) return
      const link = yield* issueLink(account.value.id, "recovery", account.value.email)
      yield* mailer.send({
        to: account.value.email,
        kind: "password-recovery",
        subject: "Redefinição de senha / Password reset",
        text: `Use este link para definir uma nova senha (válido por 1 hora):\n${link}\n\n` +
          `Use this link to set a new password (valid for 1 hour):\n${link}\n`
      })
    })

    /**
     * Answers at once, the same for any address: the look-up, the link and the e-mail happen off the
     * request path, so neither the answer nor its timing tells whether the e-mail is registered.
     */
    const recoverPassword = traced("Identity.recoverPassword")(function*(email: string) {
      yield* sendRecovery(email).pipe(
        Effect.catchAllCause((cause) => Effect.logError("password recovery e-mail failed", cause)),
        outsideTransaction,
        Effect.forkDaemon
      )
    })

    /** The link of `purposes` named by id and token: 400 for a wrong token, 410 when used or expired. */
    const openLink = (input: { id: string; token: string }, purposes: ReadonlyArray<LinkPurpose>) =>
      Effect.gen(function*() {
        const link = yield* repo.findLink(input.id, sha256(input.token), purposes)
        if (Option.isNone(link)) {
          return yield* Effect.fail(
            badRequest(Messages.linkInvalid, [{ param: "token", msg: Messages.linkInvalid, location: "body" }])
          )
        }
        const at = yield* now
        if (link.value.usedAt !== null || link.value.expiresAt.getTime() <= at.getTime()) {
          return yield* Effect.fail(gone(Messages.linkExpired))
        }
        return { link: link.value, at }
      })

    const setPassword = traced("Identity.setPassword")(
      function*(input: { id: string; token: string; password: string }) {
        const { at, link } = yield* openLink(input, passwordPurposes)
        const hash = yield* passwords.hash(input.password)
        yield* transactional(sql)(
          Effect.gen(function*() {
            const consumed = yield* repo.consumeLinks(input.id, link.id, at, passwordPurposes)
            if (!consumed) return yield* Effect.fail(gone(Messages.linkExpired))
            // Using a link proves the address it was sent to: the e-mail is verified if it still is the account's.
            yield* repo.setPassword(input.id, hash, link.email)
          })
        )
      }
    )

    const emailTakenOr = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
      Effect.catchAll(
        effect,
        (error) => uniqueViolation(error) !== undefined ? Effect.fail(conflict(Messages.emailTaken)) : Effect.die(error)
      )

    /**
     * Only the holder asks: the new address gets a confirmation link (24 hours), the old one a notice;
     * nothing changes until the link is used (`confirmEmail`). 409 when another account has the address.
     */
    const requestEmailChange = traced("Identity.requestEmailChange")(function*(accountId: string, email: string) {
      const account = yield* repo.findById(accountId)
      if (Option.isNone(account)) return yield* Effect.fail(unauthorized(Messages.tokenInvalid))
      const wanted = normalEmail(email)
      if (wanted === normalEmail(account.value.email)) return { pendingEmail: null }
      const owner = yield* repo.findByEmail(wanted)
      if (Option.isSome(owner)) return yield* Effect.fail(conflict(Messages.emailTaken))
      const link = yield* transactional(sql)(
        Effect.gen(function*() {
          yield* repo.closeLinks(accountId, yield* now, ["email-change"])
          return yield* issueLink(accountId, "email-change", wanted)
        })
      )
      yield* mailer.send({
        to: wanted,
        kind: "email-change",
        subject: "Confirme seu novo e-mail / Confirm your new e-mail",
        text: `Para usar este endereço no login, confirme pelo link (válido por 24 horas):\n${link}\n\n` +
          `To sign in with this address, confirm it with this link (valid for 24 hours):\n${link}\n`
      })
      yield* mailer.send({
        to: account.value.email,
        kind: "email-change-notice",
        subject: "Pedido de troca de e-mail / E-mail change requested",
        text: `Foi pedido trocar o e-mail de login da sua conta para ${wanted}. ` +
          `Nada muda até o novo endereço ser confirmado. Se não foi você, troque sua senha.\n\n` +
          `A change of your account's login e-mail to ${wanted} was requested. ` +
          `Nothing changes until the new address is confirmed. If this was not you, change your password.\n`
      })
      return { pendingEmail: wanted }
    })

    /** A link to the account's current address that verifies it when used (`confirmEmail`). */
    const requestVerification = traced("Identity.requestVerification")(function*(accountId: string) {
      const account = yield* repo.findById(accountId)
      if (Option.isNone(account)) return yield* Effect.fail(unauthorized(Messages.tokenInvalid))
      if (account.value.emailVerifiedAt !== null) return
      yield* sendVerification(accountId, account.value.email)
    })

    /**
     * Uses an e-mail link: an `email-change` link makes its address the login (409 if another account
     * took it meanwhile) and closes every other open link, sent to the old address; a `verify-email`
     * link verifies the address it was sent to, if still the account's (else 410).
     */
    const confirmEmail = traced("Identity.confirmEmail")(function*(input: { id: string; token: string }) {
      const { at, link } = yield* openLink(input, emailPurposes)
      const account = yield* repo.findById(input.id)
      if (Option.isNone(account) || link.email === null) return yield* Effect.fail(gone(Messages.linkExpired))
      const sentTo = link.email
      if (link.purpose === "verify-email" && normalEmail(account.value.email) !== sentTo) {
        return yield* Effect.fail(gone(Messages.linkExpired))
      }
      yield* transactional(sql)(
        Effect.gen(function*() {
          const consumed = yield* repo.consumeLinks(input.id, link.id, at, [link.purpose])
          if (!consumed) return yield* Effect.fail(gone(Messages.linkExpired))
          yield* emailTakenOr(repo.setVerifiedEmail(input.id, sentTo, at))
          if (link.purpose === "email-change") yield* repo.closeLinks(input.id, at)
        })
      )
      return { email: sentTo }
    })

    return {
      createAccount,
      issuePasswordLink,
      register,
      login,
      findAccount,
      /** The account of a row read elsewhere (the caller read with the membership). */
      accountOf: toAccount,
      findByEmail: (email: string) => Effect.map(repo.findByEmail(email), Option.map(toAccount)),
      /** Whether the account can sign in with a password already (else it needs a set-password link). */
      hasPassword: (id: string) =>
        Effect.map(repo.findById(id), (row) => Option.isSome(row) && row.value.passwordHash !== null),
      publicBaseUrl: options.publicBaseUrl,
      me,
      changePassword,
      recoverPassword,
      setPassword,
      requestEmailChange,
      requestVerification,
      confirmEmail
    }
  }),
  dependencies: [AccountsRepo.Default]
}) {}
