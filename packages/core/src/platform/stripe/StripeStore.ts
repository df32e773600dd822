import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { decodeRows } from "../../domain/Rows"

const decodeSellers = decodeRows(Schema.Struct({ accountId: Schema.String }))
const decodeCards = decodeRows(Schema.Struct({ customerId: Schema.String, paymentMethodId: Schema.String }))

/**
 * What the Stripe layer keeps in the database: the connected account that sells for a community
 * (`gateway_accounts`, gateway `stripe`) and the customer and payment method each saved card
 * token became (`stripe_saved_cards`), which renewals are charged to off-session.
 */
export class StripeStore extends Effect.Service<StripeStore>()("@roda/core/StripeStore", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const seller = (communityId: string) =>
      sql`SELECT account_id FROM gateway_sellers
        WHERE gateway = 'stripe' AND community_id = ${communityId}`.pipe(
        Effect.flatMap(decodeSellers),
        Effect.map((rows) => Option.map(Option.fromNullable(rows[0]), (row) => row.accountId)),
        Effect.orDie
      )

    const savedCard = (token: string) =>
      token === ""
        ? Effect.succeed(Option.none<{ readonly customerId: string; readonly paymentMethodId: string }>())
        : sql`SELECT customer_id, payment_method_id
          FROM stripe_saved_cards WHERE card_token = ${token}`.pipe(
          Effect.flatMap(decodeCards),
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        )

    const saveCard = (token: string, customerId: string, paymentMethodId: string) =>
      sql`INSERT INTO stripe_saved_cards (card_token, customer_id, payment_method_id)
        VALUES (${token}, ${customerId}, ${paymentMethodId})
        ON CONFLICT (card_token) DO UPDATE SET customer_id = excluded.customer_id, payment_method_id = excluded.payment_method_id`
        .pipe(
          Effect.asVoid,
          Effect.orDie
        )

    return { seller, savedCard, saveCard }
  })
}) {}
