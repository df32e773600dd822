import { Effect } from "effect"
import { conflict, fieldError, invalidField, paymentRequired } from "../../domain/AppError"
import { type ChargeResult } from "./Charging"
import { subscriptionMessages as M } from "./messages"
import { checkMove, type Move, phaseOf, refusal } from "./Policy"
import { type SubscriptionRow } from "./Repo"

/** A move of `row` checked against the transition table (409 with the allowed moves). */
export const moveCheck = (row: SubscriptionRow, move: Move) => checkMove(phaseOf(row), move)

export const declined = (result: { readonly _tag: string }) =>
  result._tag === "InvalidCard"
    ? invalidField("cardToken", M.cardTokenInvalid)
    : paymentRequired(M.declined)

/**
 * The paid billing of a move charged now, or why the move did not happen: declined, another
 * charge in flight, or (409) the subscription moved on while the money was at the gateway, the
 * money then given back.
 */
export const paidOrRefused = (result: ChargeResult, move: Move) =>
  result._tag === "Paid"
    ? result.givenBack === undefined ? Effect.succeed(result.billing) : refusal(result.givenBack, move)
    : result._tag === "InFlight"
    ? Effect.fail(conflict(M.chargeInFlight, [fieldError("status", M.chargeInFlight)]))
    : Effect.fail(declined(result))
