import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { badRequest, conflict, gone, unauthorized } from "../domain/AppError"
import type { Account, TokenSubject } from "../domain/Caller"
import { normalEmail } from "../domain/Fields"
import { AccountId } from "../domain/Ids"
import { sha256Hex } from "../platform/bytes"
import { Ids } from "../platform/Ids"
import { Mailer } from "../platform/Mailer"
import { Options } from "../platform/Options"
import { Passwords } from "../platform/Passwords"
import { Tokens } from "../platform/Tokens"
import { traced } from "../platform/traced"
import { uniqueViolation } from "../sql/errors"
import { atomic, outsideTransaction, transactional } from "../sql/transaction"
import { type AttemptKey, makeAttempts } from "./Attempts"
import { makeEmailFlows } from "./EmailChange"
import { identityMessages as M } from "./messages"
import { type AccountRow, AccountsRepo, type LinkPurpose, passwordPurposes } from "./Repo"
import { Sessions, type SignInClient } from "./Sessions"

const HOUR = 60 * 60 * 1000
const linkLifetime: Record<LinkPurpose, number> = {
  recovery: HOUR,
  invite: 7 * 24 * HOUR,
  "email-change": 24 * HOUR,
  "verify-email": 24 * HOUR,
  "email-undo": 7 * 24 * HOUR
}

/** A client that signed in to an account from its address this recently is the holder's (sign-in limits). */
const KNOWN_CLIENT_MILLIS = 30 * 24 * HOUR

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
    const sessions = yield* Sessions
    const attempts = makeAttempts(repo, options)

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
      const id = AccountId.make(yield* ids.next)
      const passwordHash = input.password === null ? null : yield* passwords.hash(input.password)
      const row = { id, email: normalEmail(input.email), fullName: input.fullName, passwordHash }
      yield* repo.insert(row).pipe(
        Effect.catchAll((error) =>
          uniqueViolation(error) !== undefined ? Effect.fail(conflict(M.emailTaken)) : Effect.die(error)
        )
      )
      return { ...row, emailVerifiedAt: null, createdAt: yield* now }
    })

    /**
     * A single-use link e-mailed to `email`: `{publicBaseUrl}/set-password?id=…&token=…` for a
     * password, `{publicBaseUrl}/confirm-email?id=…&token=…` for an address.
     */
    const issueLink = (accountId: AccountId, purpose: LinkPurpose, email: string) =>
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
      function*(accountId: AccountId, purpose: "invite" | "recovery") {
        const account = yield* repo.findById(accountId)
        if (Option.isNone(account)) return yield* Effect.dieMessage(`no account ${accountId}`)
        return yield* issueLink(accountId, purpose, account.value.email)
      }
    )

    /** A new session for the account, and its token (`sid` names the session). */
    const signIn = (account: Pick<AccountRow, "id" | "email">, client: SignInClient) =>
      Effect.flatMap(
        sessions.start(account.id, client),
        (sessionId) => tokens.issue({ accountId: account.id, email: account.email, sessionId })
      )

    const register = traced("Identity.register")(function*(
      input: { fullName: string; email: string; password: string },
      client: SignInClient = { userAgent: undefined, clientAddress: undefined }
    ) {
      const row = yield* atomic(sql)(
        Effect.tap(createAccount(input), (created) => emails.sendVerification(created.id, created.email))
      )
      return { ...summary(row), token: yield* signIn(row, client) }
    })

    /**
     * Sign-in limits: strict per account and client address (so guesses from elsewhere never lock the
     * holder out), per address over all accounts, and much higher per account from everywhere, which
     * the holder's own clients skip (`holder`): failures of strangers cannot lock them out.
     */
    const throttleKeys = (email: string, clientAddress: string | undefined, holder: boolean): Array<AttemptKey> => {
      const account = normalEmail(email)
      return [
        { key: `account-address:${account}|${clientAddress ?? "-"}`, limit: options.loginAttemptsPerAccount },
        ...(holder ? [] : [{ key: `account:${account}`, limit: options.loginAttemptsPerAccountGlobal ?? 100 }]),
        ...(clientAddress ? [{ key: `address:${clientAddress}`, limit: options.loginAttemptsPerAddress }] : [])
      ]
    }

    /** Whether `bearer` is a token of a live session of the account. */
    const holdsSession = (accountId: AccountId, bearer: string | undefined) =>
      bearer === undefined ?
        Effect.succeed(false) :
        Effect.flatMap(tokens.verify(bearer), (claims) =>
          Option.isNone(claims) || claims.value.sessionId === undefined || claims.value.accountId !== accountId
            ? Effect.succeed(false)
            : Effect.map(repo.findCaller(accountId, claims.value.sessionId), Option.isSome))

    const login = traced("Identity.login")(function*(
      input: { email: string; password: string },
      client: SignInClient & { readonly bearer?: string | undefined }
    ) {
      const since = new Date((yield* Clock.currentTimeMillis) - KNOWN_CLIENT_MILLIS)
      const account = yield* repo.findByEmailFrom(input.email, client.clientAddress, since)
      // The holder's own client (it signed in from this address lately, or holds a live session of
      // the account) is not counted against the account's limit over all addresses.
      const holder = Option.isSome(account) &&
        (account.value.knownClient || (yield* holdsSession(account.value.id, client.bearer)))
      const keys = throttleKeys(input.email, client.clientAddress, holder)
      const reserved = yield* attempts.reserve(keys)
      const stored = Option.isSome(account) ? account.value.passwordHash : null
      // An unknown e-mail costs the same hashing as a wrong password, so timing does not tell them apart.
      const matches = yield* passwords.verify(input.password, stored ?? (yield* decoyHash))
      const valid = stored !== null && matches
      // A failure keeps its reservation: it is the counted failure.
      if (!valid || Option.isNone(account)) return yield* Effect.fail(unauthorized(M.invalidCredentials))
      yield* attempts.succeeded(keys, reserved)
      return { token: yield* signIn(account.value, client), member: summary(account.value) }
    })

    /**
     * The caller's current password, checked as sign-in checks one (change-password, the e-mail
     * change): limited per account and client address and per address; the caller holds a live
     * session of the account, so the account's limit over all addresses does not apply. 400
     * `currentPassword` when wrong, 429 when over a limit.
     */
    const checkCurrentPassword = traced("Identity.checkCurrentPassword")(function*(
      accountId: AccountId,
      password: string,
      clientAddress: string | undefined,
      param = "currentPassword"
    ) {
      const keys: Array<AttemptKey> = [
        { key: `password:${accountId}|${clientAddress ?? "-"}`, limit: options.loginAttemptsPerAccount },
        ...(clientAddress ? [{ key: `address:${clientAddress}`, limit: options.loginAttemptsPerAddress }] : [])
      ]
      const reserved = yield* attempts.reserve(keys)
      const row = yield* repo.findById(accountId)
      const matches = Option.isSome(row) && row.value.passwordHash !== null &&
        (yield* passwords.verify(password, row.value.passwordHash))
      if (!matches) {
        return yield* Effect.fail(
          badRequest(M.currentPasswordWrong, [
            { param, msg: M.currentPasswordWrong, location: "body" }
          ])
        )
      }
      yield* attempts.succeeded(keys, reserved)
      return row.value
    })

    const findAccount = (id: string) => Effect.map(repo.findById(id), Option.map(toAccount))

    /** The account of a token while its session is open (one statement). */
    const findCaller = (subject: TokenSubject) =>
      Effect.map(
        repo.findCaller(subject.accountId, subject.sessionId),
        Option.map((row): Account => ({ ...toAccount(row), sessionId: subject.sessionId }))
      )

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
      input: { currentPassword: string; newPassword: string },
      clientAddress: string | undefined
    ) {
      yield* checkCurrentPassword(account.id, input.currentPassword, clientAddress)
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
    const openLink = (input: { id: AccountId; token: string }, purposes: ReadonlyArray<LinkPurpose>) =>
      Effect.gen(function*() {
        const link = yield* repo.findLink(input.id, sha256(input.token), purposes)
        if (Option.isNone(link)) {
          return yield* Effect.fail(
            badRequest(M.linkInvalid, [{ param: "token", msg: M.linkInvalid, location: "body" }])
          )
        }
        const at = yield* now
        if (link.value.usedAt !== null || link.value.expiresAt.getTime() <= at.getTime()) {
          return yield* Effect.fail(gone(M.linkExpired))
        }
        return { link: link.value, at }
      })

    const setPassword = traced("Identity.setPassword")(
      function*(input: { id: string; token: string; password: string; logoutAll?: boolean | undefined }) {
        const id = AccountId.make(input.id)
        const { at, link } = yield* openLink({ id, token: input.token }, passwordPurposes)
        const hash = yield* passwords.hash(input.password)
        yield* transactional(sql)(
          Effect.gen(function*() {
            const consumed = yield* repo.consumeLinks(id, link.id, at, passwordPurposes)
            if (!consumed) return yield* Effect.fail(gone(M.linkExpired))
            // Using a link proves the address it was sent to: the e-mail is verified if it still is the account's.
            yield* repo.setPassword(id, hash, link.email)
            if (input.logoutAll === true) yield* sessions.endEverything(id, "password set with logoutAll")
          })
        )
      }
    )

    const emails = makeEmailFlows({ sql, repo, mailer, sessions, issueLink, openLink, checkCurrentPassword })

    return {
      createAccount,
      issuePasswordLink,
      register,
      login,
      findAccount,
      findCaller,
      /** When the account was erased (null: live); none for an unknown id (members' data rights). */
      erasedAt: repo.erasedAt,
      /** The account of a row read elsewhere (the caller read with the membership). */
      accountOf: toAccount,
      findByEmail: (email: string) => Effect.map(repo.findByEmail(email), Option.map(toAccount)),
      /** Whether the account can sign in with a password already (else it needs a set-password link). */
      hasPassword: (id: string) =>
        Effect.map(repo.findById(id), (row) => Option.isSome(row) && row.value.passwordHash !== null),
      publicBaseUrl: options.publicBaseUrl,
      me,
      changePassword,
      /**
       * The caller's password, checked and limited as change-password checks the current one (400
       * `current_password_wrong` naming `param`, 429 over a limit): members' data rights (the erasure).
       */
      checkPassword: (accountId: AccountId, password: string, clientAddress: string | undefined, param: string) =>
        Effect.asVoid(checkCurrentPassword(accountId, password, clientAddress, param)),
      recoverPassword,
      setPassword,
      ...emails
    }
  }),
  dependencies: [AccountsRepo.Default, Sessions.Default]
}) {}
