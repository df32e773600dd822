import type { SqlClient } from "@effect/sql"
import * as SqlClientTag from "@effect/sql/SqlClient"
import { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Option } from "effect"
import { collectingAfterCommit } from "../platform/AfterCommit"

const isSqlError = (error: unknown): error is SqlError => error instanceof SqlError

/** Runs `effect` in a transaction (a savepoint when nested); SQL failures are defects (rule 2). */
export const transactional = (sql: SqlClient.SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(
    Effect.serviceOption(SqlClientTag.TransactionConnection),
    // the outermost transaction runs what waits for its commit (`afterCommit`) once it committed
    (outer) => Option.isSome(outer) ? sql.withTransaction(effect) : collectingAfterCommit(sql.withTransaction(effect))
  ).pipe(Effect.catchIf(isSqlError, Effect.die)) as Effect.Effect<A, Exclude<E, SqlError>, R>

/**
 * Runs `effect` all or nothing at the least cost: as it is inside the caller's transaction (a POST's
 * request transaction, say), else in a transaction of its own. No savepoint: use it only for work
 * whose failures are defects, which roll the caller's transaction back too.
 */
export const atomic = (sql: SqlClient.SqlClient) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(
    Effect.serviceOption(SqlClientTag.TransactionConnection),
    (outer) => Option.isSome(outer) ? effect : transactional(sql)(effect)
  ) as Effect.Effect<A, Exclude<E, SqlError>, R>

/**
 * Runs `effect` with no transaction of the caller: work forked off a request (e.g. an e-mail sent
 * after the answer) must not use the request's transaction connection, which is committed and given
 * back while the work still runs. Wrap the forked effect: `Effect.forkDaemon(outsideTransaction(work))`.
 */
export const outsideTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.mapInputContext(
    effect as Effect.Effect<A, E, Exclude<R, SqlClientTag.TransactionConnection>>,
    Context.omit(SqlClientTag.TransactionConnection)
  ) as Effect.Effect<A, E, R>
