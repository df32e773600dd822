import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { createHash } from "node:crypto"
import { badRequest, conflict, gone, tooManyRequests, unauthorized } from "../domain/AppError"
import type { Account } from "../domain/Caller"
import { Messages } from "../domain/Messages"
import { Ids } from "../platform/Ids"
import { Mailer } from "../platform/Mailer"
import { Options } from "../platform/Options"
import { Passwords } from "../platform/Passwords"
import { Tokens } from "../platform/Tokens"
import { uniqueViolation } from "../sql/errors"
import { transactional } from "../sql/transaction"
import { type AccountRow, AccountsRepo, type LinkPurpose } from "./Repo"

const HOUR = 60 * 60 * 1000
const linkLifetime: Record<LinkPurpose, number> = { recovery: HOUR, invite: 7 * 24 * HOUR }

const sha256 = (value: string) => createHash("sha256").update(value).digest("hex")

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

const summary = (account: AccountRow) => ({ id: account.id, email: account.email, fullName: account.fullName })

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

    /** Verified against when there is no password to check (see `login`). */
    const decoyHash = yield* passwords.hash(yield* ids.secret())

    const isPlatformAdmin = (email: string) => options.platformAdminEmails.includes(email.toLowerCase())

    const toAccount = (row: AccountRow): Account => ({
      ...summary(row),
      isPlatformAdmin: isPlatformAdmin(row.email)
    })

    /** Creates an account; `password` null leaves it to be set through a link. */
    const createAccount = Effect.fn("Identity.createAccount")(function*(
      input: { email: string; fullName: string; password: string | null }
    ) {
      const id = yield* ids.next
      const passwordHash = input.password === null ? null : yield* passwords.hash(input.password)
      const row = { id, email: input.email, fullName: input.fullName, passwordHash }
      yield* repo.insert(row).pipe(
        Effect.catchAll((error) =>
          uniqueViolation(error) !== undefined ? Effect.fail(conflict(Messages.emailTaken)) : Effect.die(error)
        )
      )
      return { ...row, createdAt: yield* now }
    })

    /** A single-use link to set the password: `{publicBaseUrl}/set-password?id=…&token=…`. */
    const issuePasswordLink = Effect.fn("Identity.issuePasswordLink")(
      function*(accountId: string, purpose: LinkPurpose) {
        const secret = yield* ids.secret()
        yield* repo.insertLink({
          id: yield* ids.next,
          accountId,
          purpose,
          secretHash: sha256(secret),
          expiresAt: new Date((yield* Clock.currentTimeMillis) + linkLifetime[purpose])
        })
        const url = new URL("/set-password", options.publicBaseUrl)
        url.searchParams.set("id", accountId)
        url.searchParams.set("token", secret)
        return url.toString()
      }
    )

    const register = Effect.fn("Identity.register")(function*(
      input: { fullName: string; email: string; password: string }
    ) {
      const row = yield* createAccount(input)
      const token = yield* tokens.issue({ accountId: row.id, email: row.email })
      return { ...summary(row), token }
    })

    const throttleKeys = (email: string, clientAddress: string | undefined) => [
      { key: `account:${email.trim().toLowerCase()}`, limit: options.loginAttemptsPerAccount },
      ...(clientAddress ? [{ key: `address:${clientAddress}`, limit: options.loginAttemptsPerAddress }] : [])
    ]

    const login = Effect.fn("Identity.login")(function*(
      input: { email: string; password: string },
      clientAddress: string | undefined
    ) {
      const keys = throttleKeys(input.email, clientAddress)
      const at = yield* now
      const windowMillis = options.loginWindowSeconds * 1000
      for (const { key, limit } of keys) {
        const record = yield* repo.failuresOf(key)
        if (Option.isSome(record) && record.value.failures >= limit) {
          const retryAt = record.value.windowStartedAt.getTime() + windowMillis
          if (retryAt > at.getTime()) {
            return yield* Effect.fail(tooManyRequests(Messages.tooManyAttempts, (retryAt - at.getTime()) / 1000))
          }
        }
      }
      const account = yield* repo.findByEmail(input.email.trim())
      const stored = Option.isSome(account) ? account.value.passwordHash : null
      // An unknown e-mail costs the same hashing as a wrong password, so timing does not tell them apart.
      const matches = yield* passwords.verify(input.password, stored ?? decoyHash)
      const valid = stored !== null && matches
      if (!valid || Option.isNone(account)) {
        yield* Effect.forEach(keys, ({ key }) => repo.recordFailure(key, at, options.loginWindowSeconds), {
          discard: true
        })
        return yield* Effect.fail(unauthorized(Messages.invalidCredentials))
      }
      yield* repo.clearFailures(keys[0]!.key)
      const token = yield* tokens.issue({ accountId: account.value.id, email: account.value.email })
      return { token, member: summary(account.value) }
    })

    const findAccount = (id: string) => Effect.map(repo.findById(id), Option.map(toAccount))

    const me = Effect.fn("Identity.me")(function*(account: Account) {
      const row = yield* repo.findById(account.id)
      if (Option.isNone(row)) return yield* Effect.fail(unauthorized(Messages.tokenInvalid))
      return { ...toAccount(row.value), createdAt: row.value.createdAt.toISOString() }
    })

    const changePassword = Effect.fn("Identity.changePassword")(function*(
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

    const recoverPassword = Effect.fn("Identity.recoverPassword")(function*(email: string) {
      const account = yield* repo.findByEmail(email)
      if (Option.isNone(account)) return
      const link = yield* issuePasswordLink(account.value.id, "recovery")
      yield* mailer.send({
        to: account.value.email,
        kind: "password-recovery",
        subject: "Redefinição de senha / Password reset",
        text: `Use este link para definir uma nova senha (válido por 1 hora):\n${link}\n\n` +
          `Use this link to set a new password (valid for 1 hour):\n${link}\n`
      })
    })

    const setPassword = Effect.fn("Identity.setPassword")(
      function*(input: { id: string; token: string; password: string }) {
        const link = yield* repo.findLink(input.id, sha256(input.token))
        if (Option.isNone(link)) {
          return yield* Effect.fail(
            badRequest(Messages.linkInvalid, [{ param: "token", msg: Messages.linkInvalid, location: "body" }])
          )
        }
        const at = yield* now
        if (link.value.usedAt !== null || link.value.expiresAt.getTime() <= at.getTime()) {
          return yield* Effect.fail(gone(Messages.linkExpired))
        }
        const hash = yield* passwords.hash(input.password)
        yield* transactional(sql)(
          Effect.gen(function*() {
            const consumed = yield* repo.consumeLinks(input.id, link.value.id, at)
            if (!consumed) return yield* Effect.fail(gone(Messages.linkExpired))
            yield* repo.setPassword(input.id, hash)
          })
        )
      }
    )

    return {
      createAccount,
      issuePasswordLink,
      register,
      login,
      findAccount,
      findByEmail: (email: string) => Effect.map(repo.findByEmail(email), Option.map(toAccount)),
      isPlatformAdmin,
      /** Fails with the SqlError of a unique violation when the e-mail is taken. */
      changeEmail: (accountId: string, email: string) => repo.setEmail(accountId, email),
      me,
      changePassword,
      recoverPassword,
      setPassword
    }
  }),
  dependencies: [AccountsRepo.Default]
}) {}
