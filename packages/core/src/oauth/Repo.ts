import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { decodeRows } from "../domain/Rows"
import { type AuditRow, AuditRowText, ClientRow, CodeRow, ConnectionRow, RequestRow, TokenRow } from "./rows"

export type { AuditRow, ClientRow, CodeRow, ConnectionRow, RequestRow, TokenRow }

const decodeClients = decodeRows(ClientRow)
const decodeRequests = decodeRows(RequestRow)
const decodeCodes = decodeRows(CodeRow)
const decodeConnections = decodeRows(ConnectionRow)
const decodeTokens = decodeRows(TokenRow)
const decodeAudit = decodeRows(AuditRowText)

export type NewToken = {
  readonly tokenHash: string
  readonly kind: "access" | "refresh"
  readonly connectionId: string
  readonly communityId: string
  readonly audience: string
  readonly scopes: string
  readonly createdAt: Date
  readonly expiresAt: Date
}

export type NewAudit = {
  readonly id: string
  readonly communityId: string
  readonly connectionId: string | null
  readonly accountId: string
  readonly profileId: string
  readonly clientName: string
  readonly tool: string
  readonly arguments: string
  readonly outcome: "ok" | "error"
  readonly error: string | null
  readonly durationMs: number
  readonly createdAt: Date
}

const first = <A>(rows: ReadonlyArray<A>) => Option.fromNullable(rows[0])

/** A code voided unexchanged when the account's sessions ended (`revokeAccount`). */
export const isVoided = (code: CodeRow) =>
  code.connectionId === null && code.usedAt !== null && code.usedAt.getTime() === code.expiresAt.getTime()

const connectionColumns = `c.id, c.community_id, c.account_id, c.client_id, coalesce(cl.name, cl.id) AS client_name,
  c.scopes, c.created_at, c.last_used_at, c.revoked_at, c.protocol_version, c.server_version, c.tools, c.last_error`

/** SQL of the OAuth server and the MCP audit (its own tables only). */
export class OAuthRepo extends Effect.Service<OAuthRepo>()("@roda/core/OAuthRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const connectionCols = sql.unsafe(connectionColumns)

    const client = (id: string) =>
      sql`SELECT id, kind, name, uri, redirect_uris, metadata, created_at, fetched_at
        FROM oauth_clients WHERE id = ${id}`.pipe(Effect.orDie, Effect.flatMap(decodeClients), Effect.map(first))

    /** Inserts a client, or refreshes a metadata document's row. */
    const saveClient = (row: ClientRow) =>
      sql`INSERT INTO oauth_clients (id, kind, name, uri, redirect_uris, metadata, created_at, fetched_at)
        VALUES (${row.id}, ${row.kind}, ${row.name}, ${row.uri}, ${JSON.stringify(row.redirectUris)}::jsonb,
          ${JSON.stringify(row.metadata)}::jsonb, ${row.createdAt}, ${row.fetchedAt})
        ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, uri = EXCLUDED.uri,
          redirect_uris = EXCLUDED.redirect_uris, metadata = EXCLUDED.metadata, fetched_at = EXCLUDED.fetched_at`
        .pipe(Effect.asVoid, Effect.orDie)

    const insertRequest = (row: RequestRow) =>
      sql`INSERT INTO oauth_authorization_requests (id, client_id, redirect_uri, code_challenge, scopes, state,
          resource, status, created_at, expires_at)
        VALUES (${row.id}, ${row.clientId}, ${row.redirectUri}, ${row.codeChallenge}, ${row.scopes}, ${row.state},
          ${row.resource}, ${row.status}, ${row.createdAt}, ${row.expiresAt})`.pipe(Effect.asVoid, Effect.orDie)

    const request = (id: string) =>
      sql`SELECT id, client_id, redirect_uri, code_challenge, scopes, state, resource, status,
          created_at, expires_at
        FROM oauth_authorization_requests WHERE id = ${id}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeRequests),
        Effect.map(first)
      )

    /** Decides a pending, unexpired request (consent or deny): whether this call was the one that did. */
    const decide = (
      id: string,
      to: "consented" | "denied",
      accountId: string,
      communityId: string | null,
      at: Date
    ) =>
      sql`UPDATE oauth_authorization_requests
        SET status = ${to}, account_id = ${accountId}, community_id = ${communityId}, decided_at = ${at}
        WHERE id = ${id} AND status = 'pending' AND expires_at > ${at} RETURNING id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    const insertCode = (row: Omit<CodeRow, "usedAt" | "connectionId">) =>
      sql`INSERT INTO oauth_codes ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie)

    /**
     * Marks the code used: only the first caller gets the row (a conditional UPDATE, so concurrent
     * exchanges have one winner). A code used before answers `{ replayed }` with its connection.
     */
    const useCode = (codeHash: string, at: Date) =>
      Effect.gen(function*() {
        const won = yield* decodeCodes(
          yield* sql`UPDATE oauth_codes SET used_at = ${at}
          WHERE code_hash = ${codeHash} AND used_at IS NULL RETURNING *`
        )
        if (won[0] !== undefined) return { _tag: "Won" as const, code: won[0] }
        const seen = yield* decodeCodes(yield* sql`SELECT * FROM oauth_codes WHERE code_hash = ${codeHash}`)
        return seen[0] === undefined
          ? { _tag: "Unknown" as const }
          : { _tag: "Replayed" as const, code: seen[0] }
      }).pipe(Effect.orDie)

    const setCodeConnection = (codeHash: string, connectionId: string) =>
      sql`UPDATE oauth_codes SET connection_id = ${connectionId} WHERE code_hash = ${codeHash}`.pipe(
        Effect.asVoid,
        Effect.orDie
      )

    const insertConnection = (row: {
      id: string
      communityId: string
      accountId: string
      clientId: string
      scopes: string
      createdAt: Date
    }) => sql`INSERT INTO oauth_connections ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie)

    const insertToken = (row: NewToken) =>
      sql`INSERT INTO oauth_tokens ${sql.insert(row)}`.pipe(Effect.asVoid, Effect.orDie)

    const token = (tokenHash: string) =>
      sql`SELECT t.kind, t.connection_id, c.community_id, c.account_id, c.client_id,
          coalesce(cl.name, cl.id) AS client_name, t.audience, t.scopes, t.expires_at, t.rotated_at,
          c.last_used_at, c.revoked_at
        FROM oauth_tokens t JOIN oauth_connections c ON c.id = t.connection_id
          JOIN oauth_clients cl ON cl.id = c.client_id
        WHERE t.token_hash = ${tokenHash}`.pipe(Effect.orDie, Effect.flatMap(decodeTokens), Effect.map(first))

    /** Marks a refresh token rotated: only the first caller wins (concurrent refreshes have one winner). */
    const rotate = (tokenHash: string, at: Date) =>
      sql`UPDATE oauth_tokens SET rotated_at = ${at}
        WHERE token_hash = ${tokenHash} AND kind = 'refresh' AND rotated_at IS NULL RETURNING connection_id`.pipe(
        Effect.map((rows) => rows.length > 0),
        Effect.orDie
      )

    /** Ends a connection (once; the first reason is kept); its tokens stop working at once. */
    const revoke = (connectionId: string, reason: string, at: Date) =>
      sql`UPDATE oauth_connections SET revoked_at = ${at}, revoked_reason = ${reason}
        WHERE id = ${connectionId} AND revoked_at IS NULL`.pipe(Effect.asVoid, Effect.orDie)

    /**
     * Ends every live connection of the account (all communities), and voids the codes it was issued
     * but has not exchanged yet (used and expired at the same instant, see `isVoided`); how many
     * connections. Codes first, both conditional on `used_at`: an exchange that marked its code
     * before makes the codes statement wait for its commit, and the connection it made is then seen
     * (and revoked) by the next statement; one that comes after finds its code used.
     */
    const revokeAccount = (accountId: string, reason: string, at: Date) =>
      Effect.zipRight(
        sql`UPDATE oauth_codes SET used_at = ${at}, expires_at = ${at}
          WHERE account_id = ${accountId} AND used_at IS NULL AND expires_at > ${at}`,
        sql`UPDATE oauth_connections SET revoked_at = ${at}, revoked_reason = ${reason}
          WHERE account_id = ${accountId} AND revoked_at IS NULL RETURNING id`
      ).pipe(
        Effect.map((rows) => rows.length),
        Effect.orDie
      )

    /** Marks the connection used, at most once a minute (a cheap conditional write). */
    const touch = (connectionId: string, at: Date) =>
      sql`UPDATE oauth_connections SET last_used_at = ${at}
        WHERE id = ${connectionId} AND (last_used_at IS NULL OR last_used_at < ${new Date(at.getTime() - 60_000)})`
        .pipe(Effect.asVoid, Effect.orDie)

    const connection = (communityId: string, id: string) =>
      sql`SELECT ${connectionCols} FROM oauth_connections c
        JOIN oauth_clients cl ON cl.id = c.client_id
        WHERE c.community_id = ${communityId} AND c.id = ${id}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeConnections),
        Effect.map(first)
      )

    /** The community's live connections (of `accountId` only, unless null), newest first, keyset by id. */
    const connections = (communityId: string, accountId: string | null, before: string | undefined, limit: number) =>
      sql`SELECT ${connectionCols} FROM oauth_connections c
        JOIN oauth_clients cl ON cl.id = c.client_id
        WHERE c.community_id = ${communityId} AND c.revoked_at IS NULL
        ${accountId === null ? sql`` : sql`AND c.account_id = ${accountId}`}
        ${before === undefined ? sql`` : sql`AND c.id < ${before}`}
        ORDER BY c.id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie, Effect.flatMap(decodeConnections))

    const recordSession = (
      connectionId: string,
      info: { protocolVersion: string; serverVersion: string; tools: ReadonlyArray<string>; lastError: string | null },
      at: Date
    ) =>
      sql`UPDATE oauth_connections SET protocol_version = ${info.protocolVersion},
          server_version = ${info.serverVersion}, tools = ${JSON.stringify(info.tools)}::jsonb,
          last_error = ${info.lastError}, session_at = ${at}
        WHERE id = ${connectionId}`.pipe(Effect.asVoid, Effect.orDie)

    const insertAudit = (row: NewAudit) =>
      sql`INSERT INTO mcp_audit (id, community_id, connection_id, account_id, profile_id, client_name, tool,
          arguments, outcome, error, duration_ms, created_at)
        VALUES (${row.id}, ${row.communityId}, ${row.connectionId}, ${row.accountId}, ${row.profileId},
          ${row.clientName}, ${row.tool}, ${row.arguments}::jsonb, ${row.outcome}, ${row.error},
          ${row.durationMs}, ${row.createdAt})`.pipe(Effect.asVoid)

    const audit = (communityId: string, before: string | undefined, limit: number) =>
      sql`SELECT id, connection_id, account_id, profile_id, client_name,
          tool, arguments::text AS arguments, outcome, error, duration_ms, created_at
        FROM mcp_audit WHERE community_id = ${communityId} ${before ? sql`AND id < ${before}` : sql``}
        ORDER BY id DESC LIMIT ${limit + 1}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeAudit),
        // as text: the client's argument names are kept as they were (no camel-casing of the JSON)
        Effect.map((rows) => rows.map((row): AuditRow => ({ ...row, arguments: JSON.parse(row.arguments) as unknown })))
      )

    /**
     * Housekeeping, a few rows at a time: requests never consented (a day after they expired), and
     * tokens a day past their expiry (a rotated refresh token is kept until then, to catch its reuse).
     */
    const sweep = (at: Date) =>
      Effect.gen(function*() {
        const dayAgo = new Date(at.getTime() - 24 * 60 * 60 * 1000)
        yield* sql`DELETE FROM oauth_authorization_requests WHERE id IN (
            SELECT id FROM oauth_authorization_requests
            WHERE status <> 'consented' AND expires_at < ${dayAgo} LIMIT 100)`
        yield* sql`DELETE FROM oauth_tokens WHERE token_hash IN (
            SELECT token_hash FROM oauth_tokens WHERE expires_at < ${dayAgo} LIMIT 100)`
      }).pipe(Effect.orDie)

    return {
      sweep,
      client,
      saveClient,
      insertRequest,
      request,
      decide,
      insertCode,
      useCode,
      setCodeConnection,
      insertConnection,
      insertToken,
      token,
      rotate,
      revoke,
      revokeAccount,
      touch,
      connection,
      connections,
      recordSession,
      insertAudit,
      audit
    }
  })
}) {}
