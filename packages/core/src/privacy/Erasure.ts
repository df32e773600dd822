import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { OperatorAudit } from "../audit/OperatorAudit"
import { conflict, fieldError, notFound } from "../domain/AppError"
import type { Account } from "../domain/Caller"
import type { AccountId } from "../domain/Ids"
import { requirePlatformAdmin } from "../domain/Policy"
import { Identity } from "../identity/Identity"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { PrivacyMessages as M } from "./messages"
import { type DataSubject, type ErasureOptions, type OwnedCommunity, PersonalData } from "./PersonalData"

/** What an erasure answers: the account, and whether its posts and comments were deleted. */
export interface Erased {
  readonly id: string
  readonly deleteContent: boolean
}

/**
 * Erasure of an account (platform.md "Members' data rights", issue 56 item 4): the holder's own
 * (`DELETE /api/account`, with the password) and an operator's on a written request (`roda accounts
 * erase`, audited). Blockers first (409 naming the communities to hand over), then every feature's
 * step in the order of `PersonalData.erasures`, all in one transaction; what must happen outside it
 * (files) is enqueued there as durable jobs. Running it again for an erased account changes nothing.
 */
export class Erasure extends Effect.Service<Erasure>()("@roda/core/Erasure", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const data = yield* PersonalData
    const identity = yield* Identity
    const audit = yield* OperatorAudit

    const blockersOf = (subject: DataSubject) =>
      Effect.map(
        Effect.forEach(data.erasures, (step) =>
          step.blockers === undefined ? Effect.succeed([]) : step.blockers(subject)),
        (lists) =>
          lists.flat()
      )

    const refuseBlocked = (owned: ReadonlyArray<OwnedCommunity>) => {
      if (owned.length === 0) return Effect.void
      const first = owned[0]!
      return Effect.fail(conflict(
        M.ownedCommunities(owned.map((community) => community.name)),
        [first, ...owned.slice(1)].map((community) =>
          fieldError("communities", M.ownedCommunity(community.name, community.id))
        )
      ))
    }

    /** Blockers, then every step, in the caller's transaction (one of its own otherwise). */
    const run = (accountId: AccountId, options: ErasureOptions) =>
      Effect.gen(function*() {
        const subject = yield* data.subjectOf(accountId)
        yield* refuseBlocked(yield* blockersOf(subject))
        for (const step of data.erasures) {
          yield* step.erase(subject, options)
        }
        return subject
      })

    /**
     * The holder's erasure: the password is checked first, outside the transaction (a wrong one
     * stays counted against the limits), then the erasure runs in one transaction.
     */
    const eraseOwn = traced("Erasure.eraseOwn")(function*(
      account: Account,
      input: { readonly password: string; readonly deleteContent?: boolean | undefined },
      clientAddress: string | undefined
    ) {
      yield* identity.checkPassword(account.id, input.password, clientAddress, "password")
      const options = { deleteContent: input.deleteContent === true }
      yield* transactional(sql)(run(account.id, options))
      return { id: account.id, deleteContent: options.deleteContent } satisfies Erased
    })

    /**
     * An operator's erasure on the member's written request (`reason` names it): no password;
     * recorded in the operator audit log in the same transaction. An account erased already is
     * erased again, which changes nothing (`alreadyErased` in the answer and the audit entry).
     */
    const eraseAsOperator = traced("Erasure.eraseAsOperator")(function*(
      operator: Account,
      accountId: AccountId,
      input: { readonly deleteContent: boolean; readonly reason: string }
    ) {
      yield* requirePlatformAdmin(operator)
      const state = yield* identity.erasedAt(accountId)
      if (Option.isNone(state)) return yield* Effect.fail(notFound(M.accountNotFound))
      const alreadyErased = state.value !== null
      const options = { deleteContent: input.deleteContent }
      const subject = yield* transactional(sql)(
        Effect.tap(run(accountId, options), (subject) =>
          audit.record({
            actor: operator,
            action: "account.erase",
            target: { type: "account", id: accountId },
            details: {
              reason: input.reason,
              deleteContent: input.deleteContent,
              profiles: subject.profiles.length,
              alreadyErased
            }
          }))
      )
      return { id: accountId, deleteContent: options.deleteContent, alreadyErased, profiles: subject.profiles.length }
    })

    return {
      eraseOwn,
      eraseAsOperator,
      /** What the features keep after an erasure and why (their steps' `keeps`). */
      keeps: data.erasures.flatMap((step) =>
        step.keeps === undefined ? [] : [{ feature: step.feature, keeps: step.keeps }]
      )
    }
  })
}) {}
