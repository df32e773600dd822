import { SqlClient } from "@effect/sql"
import { Clock, Effect, Schema } from "effect"
import { OperatorAudit } from "../audit/OperatorAudit"
import { notFound } from "../domain/AppError"
import type { Account } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import type { AccountId } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import { requirePlatformAdmin } from "../domain/Policy"
import { AccountGrants } from "../oauth/Grants"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { outsideTransaction, transactional } from "../sql/transaction"
import { sessionMessages as M } from "./messages"
import { AccountsRepo } from "./Repo"
import { SessionsRepo } from "./SessionsRepo"

/** Where a sign-in comes from, as the session list shows it. */
export interface SignInClient {
  readonly userAgent: string | undefined
  readonly clientAddress: string | undefined
}

const MINUTE = 60_000
/** Sessions this process marked used lately, by id; emptied when it holds this many. */
const TOUCHED_SESSIONS = 10_000

const SessionCursor = Schema.Tuple(CursorPart.timestamp, CursorPart.uuid)

/** The minute an instant falls in (`lastUsedAt` is kept to the minute). */
const toMinute = (at: Date) => new Date(Math.floor(at.getTime() / MINUTE) * MINUTE).toISOString()

/**
 * Sign-in sessions (platform.md "Sessions"): every token names one (`sid`); a session ends only when
 * someone ends it, and the caller statement of every request reads it, so an ended session's token
 * is refused by every process from its next request.
 */
export class Sessions extends Effect.Service<Sessions>()("@roda/core/Sessions", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* SessionsRepo
    const accounts = yield* AccountsRepo
    const ids = yield* Ids
    const grants = yield* AccountGrants
    const audit = yield* OperatorAudit
    const touched = new Map<string, number>()

    const remember = (sessionId: string, at: number) => {
      if (touched.size >= TOUCHED_SESSIONS) touched.clear()
      touched.set(sessionId, at)
    }

    /** A new session of the account; its id goes into the token as `sid`. */
    const start = traced("Sessions.start")(function*(accountId: AccountId, client: SignInClient) {
      const id = yield* ids.next
      yield* repo.insert({
        id,
        accountId,
        userAgent: client.userAgent?.slice(0, 500) ?? null,
        clientAddress: client.clientAddress ?? null
      })
      remember(id, yield* Clock.currentTimeMillis)
      return id
    })

    /**
     * `lastUsedAt`, to the minute, off the request's path: at most one conditional write a minute per
     * session and process, forked outside the request's transaction (no statement the request waits
     * for). The statement itself changes nothing within the minute, so processes sharing the
     * database cost one write a minute between them at most.
     */
    const touch = (sessionId: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const last = touched.get(sessionId)
        if (last !== undefined && now - last < MINUTE) return Effect.void
        remember(sessionId, now)
        return repo.touch(sessionId).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("session not marked used", cause)),
          outsideTransaction,
          // a trace of its own: the request does not wait for it, nor count it among its statements
          Effect.withSpan("Sessions.touch", { root: true }),
          Effect.forkDaemon,
          Effect.asVoid
        )
      })

    const list = traced("Sessions.list")(function*(account: Account, query: PageQuery) {
      const result = yield* paginate(
        query,
        SessionCursor,
        (after, limit) =>
          repo.open(
            account.id,
            after === undefined ? undefined : { createdAt: new Date(after[0]), id: after[1] },
            limit
          ),
        (row) => [row.createdAt.toISOString(), row.id]
      )
      return {
        ...result,
        items: result.items.map((row) => ({
          id: row.id,
          createdAt: row.createdAt.toISOString(),
          lastUsedAt: toMinute(row.lastUsedAt),
          userAgent: row.userAgent,
          clientAddress: row.clientAddress,
          current: row.id === account.sessionId
        }))
      }
    })

    /** Ends one of the caller's sessions: 404 for another's, an ended one or none. */
    const end = traced("Sessions.end")(function*(account: Account, sessionId: string) {
      if (!(yield* repo.end(account.id, sessionId))) return yield* Effect.fail(notFound(M.sessionNotFound))
    })

    /** Ends the request's own session (its token answers 401 from the next request). */
    const logout = traced("Sessions.logout")(function*(account: Account) {
      if (account.sessionId !== undefined) yield* repo.end(account.id, account.sessionId)
    })

    /** Ends every session of the account (but `keep`) and every OAuth grant it gave. */
    const endEverything = (accountId: AccountId, reason: string, keep?: string) =>
      Effect.zipWith(
        repo.endAll(accountId, keep),
        grants.revokeAll(accountId, reason),
        (sessions, connections) => ({ sessions, connections })
      )

    /** `logout-all`: the caller's sessions (the current one too unless `keepCurrent`) and OAuth grants. */
    const logoutAll = traced("Sessions.logoutAll")(function*(account: Account, keepCurrent: boolean) {
      return yield* endEverything(account.id, "signed out everywhere", keepCurrent ? account.sessionId : undefined)
    })

    /** An operator ends every session and OAuth grant of an account, recorded in the operator audit log. */
    const endAllAsOperator = traced("Sessions.endAllAsOperator")(function*(operator: Account, accountId: AccountId) {
      yield* requirePlatformAdmin(operator)
      yield* orNotFound(M.accountNotFound)(accounts.findById(accountId))
      return yield* transactional(sql)(
        Effect.tap(endEverything(accountId, "ended by a platform operator"), (ended) =>
          audit.record({
            actor: operator,
            action: "account.sessions_end",
            target: { type: "account", id: accountId },
            details: { sessions: ended.sessions, connections: ended.connections }
          }))
      )
    })

    return { start, touch, list, end, logout, logoutAll, endEverything, endAllAsOperator }
  }),
  dependencies: [SessionsRepo.Default, AccountsRepo.Default]
}) {}
