import { Clock, Effect, Layer, Option } from "effect"
import { ApiKeyAccess } from "../apiKeys/ApiKeyAccess"
import { type CallerMembership, Memberships } from "../communities/Memberships"
import { badRequest, fieldError, forbidden, unauthorized } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { AccountId, CommunityId, isUuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { Identity } from "../identity/Identity"
import { Ids } from "../platform/Ids"
import { RateLimits } from "../platform/RateLimits"
import { Tokens } from "../platform/Tokens"
import { McpAccess, type McpCaller, McpUnauthorized } from "./McpAccess"
import { OAuthRepo } from "./Repo"
import { parseScopes } from "./scopes"
import { ACCESS_PREFIX, auditArguments, sha256 } from "./secrets"

const API_KEY_PREFIX = "rk_"
import { OAuthUrls } from "./urls"

const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

const refuse = (reason: string) => Effect.fail(new McpUnauthorized({ reason }))

/** `McpAccess` over the OAuth server's own tables: tokens looked up by hash, the audit written here. */
export const McpAccessLive = Layer.effect(
  McpAccess,
  Effect.gen(function*() {
    const repo = yield* OAuthRepo
    const urls = yield* OAuthUrls
    const memberships = yield* Memberships
    const identity = yield* Identity
    const tokens = yield* Tokens
    const ids = yield* Ids
    const apiKeys = yield* ApiKeyAccess
    const limits = yield* RateLimits

    /** The account's own membership in the community, from its caller row, if it still has one. */
    const memberFrom = (communityId: CommunityId, found: CallerMembership): Option.Option<Member> =>
      found.profileId === null || found.role === null ? Option.none() : Option.some({
        account: identity.accountOf(found),
        communityId,
        profileId: found.profileId,
        role: found.role,
        actingProfileId: found.profileId,
        suspendedUntil: found.suspendedUntil,
        slowModeSeconds: found.slowModeSeconds
      })

    /** The account's own membership in the community, if it still has one. */
    const memberOf = (communityId: CommunityId, accountId: AccountId) =>
      Effect.map(
        memberships.callerIn(communityId, accountId),
        Option.flatMap((found) => memberFrom(communityId, found))
      )

    /**
     * An API key as the caller: its creator's membership in the key's community (which `communityId`,
     * when given, must be), both MCP scopes (each tool then needs its route's key scope), counted
     * against the key's limit. None when the key is not live.
     */
    const keyCaller = (key: string, communityId: string | undefined) =>
      Effect.gen(function*() {
        const found = yield* apiKeys.authenticate(key)
        if (Option.isNone(found)) return Option.none<McpCaller>()
        const grant = found.value
        const asked = communityId?.trim().toLowerCase()
        if (asked !== undefined && asked !== "" && asked !== grant.communityId) {
          return yield* Effect.fail(forbidden(Messages.apiKeyOtherCommunity))
        }
        const member = yield* memberOf(grant.communityId, grant.accountId)
        if (Option.isNone(member)) return yield* Effect.fail(forbidden(Messages.notMember))
        yield* limits.apiKey(grant.keyId)
        return Option.some<McpCaller>({
          connectionId: null,
          clientName: `API key ${key.slice(0, 8)}`,
          member: member.value,
          scopes: ["read", "write"],
          apiKey: { id: grant.keyId, scopes: grant.scopes }
        })
      })

    const authenticate = (accessToken: string) =>
      Effect.gen(function*() {
        if (accessToken.startsWith(API_KEY_PREFIX)) {
          const caller = yield* keyCaller(accessToken, undefined)
          return Option.isSome(caller) ? caller.value : yield* refuse("unknown, revoked or expired API key")
        }
        if (!accessToken.startsWith(ACCESS_PREFIX)) return yield* refuse("not an MCP access token")
        const found = yield* repo.token(sha256(accessToken))
        if (Option.isNone(found) || found.value.kind !== "access") return yield* refuse("unknown token")
        const token = found.value
        const at = yield* now
        if (token.expiresAt.getTime() <= at.getTime()) return yield* refuse("expired token")
        if (token.audience !== urls.resource) return yield* refuse("token of another audience")
        if (token.revokedAt !== null) return yield* refuse("revoked connection")
        const member = yield* memberOf(CommunityId.make(token.communityId), AccountId.make(token.accountId))
        if (Option.isNone(member)) return yield* refuse("the account is no longer a member of the community")
        if (token.lastUsedAt === null || at.getTime() - token.lastUsedAt.getTime() > 60_000) {
          yield* repo.touch(token.connectionId, at)
        }
        return {
          connectionId: token.connectionId,
          clientName: token.clientName,
          member: member.value,
          scopes: parseScopes(token.scopes)
        } satisfies McpCaller
      }).pipe(Effect.withSpan("McpAccess.authenticate"))

    const authenticateLocal = (apiToken: string, communityId: string | undefined) =>
      Effect.gen(function*() {
        if (apiToken.trim() === "") return yield* Effect.fail(unauthorized(Messages.tokenRequired))
        if (apiToken.trim().startsWith(API_KEY_PREFIX)) {
          const caller = yield* keyCaller(apiToken.trim(), communityId)
          return Option.isSome(caller) ? caller.value : yield* Effect.fail(unauthorized(Messages.tokenInvalid))
        }
        const claims = yield* tokens.verify(apiToken.trim())
        // As on /api: a token of no session (issued before sessions) or of an ended one is refused.
        if (Option.isNone(claims) || claims.value.sessionId === undefined || !isUuid(claims.value.accountId)) {
          return yield* Effect.fail(unauthorized(Messages.tokenInvalid))
        }
        const sessionId = claims.value.sessionId
        const id = (communityId ?? "").trim().toLowerCase()
        if (!isUuid(id)) {
          return yield* Effect.fail(
            badRequest(Messages.communityHeaderMissing, [
              fieldError("X-CommunityId", Messages.communityHeaderParam, "headers")
            ])
          )
        }
        const community = CommunityId.make(id)
        const row = yield* memberships.callerIn(community, AccountId.make(claims.value.accountId), sessionId)
        if (Option.isNone(row)) return yield* Effect.fail(unauthorized(Messages.tokenInvalid))
        const member = memberFrom(community, row.value)
        if (Option.isNone(member)) return yield* Effect.fail(forbidden(Messages.notMember))
        return {
          connectionId: null,
          clientName: "stdio",
          member: member.value,
          scopes: ["read", "write"]
        } satisfies McpCaller
      }).pipe(Effect.withSpan("McpAccess.authenticateLocal"))

    return McpAccess.of({
      resource: urls.resource,
      challenge: urls.challenge,
      insufficientScope: urls.insufficientScope,
      authenticate,
      authenticateLocal,
      recordCall: (call) =>
        Effect.gen(function*() {
          yield* repo.insertAudit({
            id: yield* ids.next,
            communityId: call.caller.member.communityId,
            connectionId: call.caller.connectionId,
            accountId: call.caller.member.account.id,
            profileId: call.caller.member.profileId,
            clientName: call.caller.clientName,
            tool: call.tool,
            arguments: auditArguments(call.arguments),
            outcome: call.outcome,
            error: call.error === undefined ? null : call.error.slice(0, 2000),
            durationMs: Math.max(0, Math.min(2_147_483_647, Math.round(call.durationMs))),
            createdAt: yield* now
          })
        }).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("MCP audit entry not written", cause)),
          Effect.withSpan("McpAccess.recordCall")
        ),
      recordSession: (connectionId, info) =>
        Effect.gen(function*() {
          if (!isUuid(connectionId)) return
          yield* repo.recordSession(connectionId, {
            protocolVersion: info.protocolVersion,
            serverVersion: info.serverVersion,
            tools: info.tools,
            lastError: info.lastError?.slice(0, 2000) ?? null
          }, yield* now)
        }).pipe(Effect.catchAllCause((cause) => Effect.logWarning("MCP session not recorded", cause)))
    })
  })
).pipe(Layer.provide(Layer.mergeAll(OAuthRepo.Default, OAuthUrls.layer)))
