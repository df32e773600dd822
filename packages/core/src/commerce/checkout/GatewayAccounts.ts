import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { OperatorAudit } from "../../audit/OperatorAudit"
import { notFound } from "../../domain/AppError"
import type { Account } from "../../domain/Caller"
import type { CommunityId } from "../../domain/Ids"
import { Messages } from "../../domain/Messages"
import { requirePlatformAdmin } from "../../domain/Policy"
import { PaymentGateway } from "../../platform/PaymentGateway"
import { traced } from "../../platform/traced"
import { transactional } from "../../sql/transaction"

/** The seller account of a community at the active gateway (`gateway_accounts`), set by operators. */
export class GatewayAccounts extends Effect.Service<GatewayAccounts>()("@roda/core/GatewayAccounts", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const gateway = yield* PaymentGateway
    const audit = yield* OperatorAudit
    const transaction = transactional(sql)
    const decodeAccounts = Schema.decodeUnknown(Schema.Array(Schema.Struct({ accountId: Schema.String })))

    const community = (communityId: CommunityId) =>
      Effect.gen(function*() {
        const rows = yield* sql`SELECT id FROM community_summaries WHERE id = ${communityId}`.pipe(Effect.orDie)
        if (rows.length === 0) return yield* Effect.fail(notFound(Messages.communityNotFound))
      })

    const view = (communityId: CommunityId) =>
      Effect.map(
        sql`SELECT account_id FROM gateway_accounts
          WHERE gateway = ${gateway.name} AND community_id = ${communityId}`.pipe(
          Effect.flatMap(decodeAccounts),
          Effect.orDie
        ),
        (rows) => ({ communityId, gateway: gateway.name, accountId: rows[0]?.accountId ?? null })
      )

    const get = traced("GatewayAccounts.get")(function*(account: Account, communityId: CommunityId) {
      yield* requirePlatformAdmin(account)
      yield* community(communityId)
      return yield* view(communityId)
    })

    const set = traced("GatewayAccounts.set")(function*(account: Account, communityId: CommunityId, accountId: string) {
      yield* requirePlatformAdmin(account)
      yield* community(communityId)
      yield* transaction(Effect.zipRight(
        sql`INSERT INTO gateway_accounts (gateway, community_id, account_id)
          VALUES (${gateway.name}, ${communityId}, ${accountId})
          ON CONFLICT (gateway, community_id) DO UPDATE SET account_id = excluded.account_id`.pipe(Effect.orDie),
        audit.record({
          actor: account,
          action: "gateway_account.set",
          target: { type: "gateway_account", id: communityId },
          community: communityId,
          details: { gateway: gateway.name, accountId }
        })
      ))
      return yield* view(communityId)
    })

    const remove = traced("GatewayAccounts.remove")(function*(account: Account, communityId: CommunityId) {
      yield* requirePlatformAdmin(account)
      yield* community(communityId)
      yield* transaction(Effect.zipRight(
        sql`DELETE FROM gateway_accounts WHERE gateway = ${gateway.name} AND community_id = ${communityId}`.pipe(
          Effect.orDie
        ),
        audit.record({
          actor: account,
          action: "gateway_account.remove",
          target: { type: "gateway_account", id: communityId },
          community: communityId,
          details: { gateway: gateway.name }
        })
      ))
      return yield* view(communityId)
    })

    return { get, set, remove }
  })
}) {}
