import { Schema } from "effect"
import { AccountId, CommunityId, ProfileId } from "../domain/Ids"

/** The OAuth server's rows as its statements read them (decoded at the boundary, `Repo.ts`). */

const Instant = Schema.DateFromSelf
const Maybe = <A, I>(schema: Schema.Schema<A, I>) => Schema.NullOr(schema)

export const ClientRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literal("registered", "metadata_document"),
  name: Maybe(Schema.String),
  uri: Maybe(Schema.String),
  redirectUris: Schema.Array(Schema.String),
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  createdAt: Instant,
  fetchedAt: Instant
})
export type ClientRow = typeof ClientRow.Type

export const RequestRow = Schema.Struct({
  id: Schema.String,
  clientId: Schema.String,
  redirectUri: Schema.String,
  codeChallenge: Schema.String,
  scopes: Schema.String,
  state: Maybe(Schema.String),
  resource: Schema.String,
  status: Schema.Literal("pending", "consented", "denied"),
  createdAt: Instant,
  expiresAt: Instant
})
export type RequestRow = typeof RequestRow.Type

/** A code as issued (its ids as the consent wrote them) and, once exchanged, its use. */
export const CodeRow = Schema.Struct({
  codeHash: Schema.String,
  requestId: Schema.String,
  communityId: Schema.String,
  accountId: Schema.String,
  clientId: Schema.String,
  redirectUri: Schema.String,
  codeChallenge: Schema.String,
  scopes: Schema.String,
  resource: Schema.String,
  expiresAt: Instant,
  usedAt: Maybe(Instant),
  connectionId: Maybe(Schema.String)
})
export type CodeRow = typeof CodeRow.Type

export const ConnectionRow = Schema.Struct({
  id: Schema.String,
  communityId: CommunityId,
  accountId: AccountId,
  clientId: Schema.String,
  clientName: Schema.String,
  scopes: Schema.String,
  createdAt: Instant,
  lastUsedAt: Maybe(Instant),
  revokedAt: Maybe(Instant),
  protocolVersion: Maybe(Schema.String),
  serverVersion: Maybe(Schema.String),
  tools: Maybe(Schema.Array(Schema.String)),
  lastError: Maybe(Schema.String)
})
export type ConnectionRow = typeof ConnectionRow.Type

/** A token found by its hash, with its connection and client. */
export const TokenRow = Schema.Struct({
  kind: Schema.Literal("access", "refresh"),
  connectionId: Schema.String,
  communityId: CommunityId,
  accountId: AccountId,
  clientId: Schema.String,
  clientName: Schema.String,
  audience: Schema.String,
  scopes: Schema.String,
  expiresAt: Instant,
  rotatedAt: Maybe(Instant),
  lastUsedAt: Maybe(Instant),
  revokedAt: Maybe(Instant)
})
export type TokenRow = typeof TokenRow.Type

/** An MCP audit entry; `arguments` is read as text, so the client's argument names stay as sent. */
export const AuditRowText = Schema.Struct({
  id: Schema.String,
  connectionId: Maybe(Schema.String),
  accountId: AccountId,
  profileId: ProfileId,
  clientName: Schema.String,
  tool: Schema.String,
  arguments: Schema.String,
  outcome: Schema.Literal("ok", "error"),
  error: Maybe(Schema.String),
  durationMs: Schema.Number,
  createdAt: Instant
})
export type AuditRow = Omit<typeof AuditRowText.Type, "arguments"> & { readonly arguments: unknown }
