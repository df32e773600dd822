import { Clock, Effect, Layer, Option } from "effect"
import { CommunityNotices } from "../../communities/Memberships"
import { formatMoney } from "../../domain/Money"
import { LedgerPosting } from "../../money/ledger/LedgerPosting"
import { Mailer } from "../../platform/Mailer"
import { type GatewayDispute, PaymentGateway } from "../../platform/PaymentGateway"
import { WebhookEvents } from "../../webhooks/WebhookEvents"
import { ChargeDisputes, type DisputedCharge, type LostDispute } from "./ChargeDisputes"
import { type DisputeRow, DisputesRepo } from "./DisputesRepo"
import { type DisputeEffect, disputeTransition } from "./disputeStates"

const outcomeWords = { won: "ganha / won", lost: "perdida / lost", open: "aberta / open" } as const

const iso = (date: Date | null) => date === null ? null : date.toISOString()

/**
 * A dispute as the `dispute.*` webhooks carry it (no route shows disputes), less its `purchaseId`
 * (the ONE_TIME sale disputed, null for a plan's charge or a renewal billing: `DisputesRepo.eventOf`).
 */
const disputeView = (row: DisputeRow) => ({
  id: row.disputeId,
  chargeId: row.chargeId,
  status: row.status,
  amount: row.amount,
  currency: row.currency,
  held: row.held,
  fee: row.fee,
  feeCurrency: row.feeCurrency,
  reason: row.reason,
  openedAt: iso(row.openedAt),
  closedAt: iso(row.closedAt)
})

/**
 * `ChargeDisputes` over checkout's `disputes` table (issue 52), on the ledger's contract. Built on
 * the ledger and the community notices, so provided after them (`app/contracts.ts`).
 */
export const ChargeDisputesLive = Layer.effect(
  ChargeDisputes,
  Effect.gen(function*() {
    const repo = yield* DisputesRepo
    const ledger = yield* LedgerPosting
    const notices = yield* CommunityNotices
    const mailer = yield* Mailer
    const gateway = yield* PaymentGateway
    const webhooks = yield* WebhookEvents
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** The owners' e-mail and the community's webhook of an opening or a close. */
    const announce = (row: DisputeRow, dispute: GatewayDispute, kind: "dispute.opened" | "dispute.closed") =>
      Effect.gen(function*() {
        // the sale disputed is read by the event's own insert
        const source = repo.eventOf(row.communityId, row.chargeId, disputeView(row))
        yield* Effect.withSpan(
          Effect.flatMap(webhooks.emitWithin(row.communityId, kind, source), repo.write),
          "WebhookEvents.dispute"
        )
        const amount = formatMoney(dispute.amount, row.currency)
        const reason = dispute.reason === null ? "" : ` (${dispute.reason})`
        const fee = row.fee > 0 ? `\nTarifa da disputa / Dispute fee: ${formatMoney(row.fee, row.feeCurrency!)}` : ""
        const mail = kind === "dispute.opened"
          ? {
            subject: `Disputa aberta: ${amount} / Dispute opened: ${amount}`,
            text: `O comprador contestou ${amount} da cobrança ${row.chargeId}${reason}. ` +
              `${formatMoney(row.held, row.currency)} ficam retidos até o fim da disputa.\n` +
              `The buyer disputed ${amount} of charge ${row.chargeId}${reason}. ` +
              `${formatMoney(row.held, row.currency)} is held until the dispute closes.`
          }
          : {
            subject: `Disputa encerrada (${outcomeWords[row.status]}): ${amount}`,
            text: `A disputa de ${amount} da cobrança ${row.chargeId} foi encerrada: ${outcomeWords[row.status]}.\n` +
              `The dispute of ${amount} of charge ${row.chargeId} is closed: ${row.status}.` + fee
          }
        for (const to of yield* notices.ownerEmails(row.communityId)) {
          yield* mailer.send({ to, communityId: row.communityId, kind, ...mail })
        }
      })

    /** Books one effect of a move; the row as it stands after it. */
    const apply = <E>(
      row: DisputeRow,
      dispute: GatewayDispute,
      effect: DisputeEffect,
      at: Date,
      takeBack: (lost: LostDispute) => Effect.Effect<void, E>
    ) =>
      Effect.gen(function*() {
        const move = { communityId: row.communityId, chargeId: row.chargeId, disputeId: row.disputeId, at }
        switch (effect) {
          case "hold": {
            // a sale the gateway settled to the community's own account is reversed there: nothing held here
            if (yield* ledger.settledByGateway(row.communityId, row.chargeId)) return row
            const refundable = Option.getOrElse(yield* ledger.refundable(row.communityId, row.chargeId), () => 0)
            const held = Math.max(0, Math.min(dispute.amount, refundable))
            if (held > 0) {
              yield* ledger.recordDispute({
                ...move,
                move: "hold",
                currency: row.currency,
                amount: held,
                description: `Disputa aberta / Dispute opened: ${row.disputeId}`
              })
            }
            return { ...row, held }
          }
          case "release": {
            if (row.held > 0) {
              yield* ledger.recordDispute({
                ...move,
                move: "release",
                currency: row.currency,
                amount: row.held,
                description: `Disputa encerrada / Dispute closed: ${row.disputeId}`
              })
            }
            return { ...row, held: 0 }
          }
          case "chargeback": {
            yield* takeBack({ amount: dispute.amount, disputeId: row.disputeId })
            return row
          }
          case "fee": {
            const feeCurrency = dispute.feeCurrency ?? row.currency
            if (dispute.fee > 0) {
              yield* ledger.recordDispute({
                ...move,
                move: "fee",
                currency: feeCurrency,
                amount: dispute.fee,
                description: `Tarifa de disputa / Dispute fee: ${row.disputeId}`
              })
            }
            return { ...row, fee: Math.max(0, dispute.fee), feeCurrency }
          }
          case "mailOpened":
            return yield* Effect.as(announce(row, dispute, "dispute.opened"), row)
          case "mailClosed":
            return yield* Effect.as(announce(row, dispute, "dispute.closed"), row)
        }
      })

    /**
     * A dispute step the gateway reported of a paid charge (locked by the caller), in the caller's
     * transaction; the dispute's status afterwards. Once per dispute and step, whatever the order.
     */
    const fromGateway = <E>(
      charge: DisputedCharge,
      dispute: GatewayDispute,
      takeBack: (lost: LostDispute) => Effect.Effect<void, E>
    ): Effect.Effect<DisputeRow["status"], E> =>
      Effect.gen(function*() {
        const at = yield* now
        const current = yield* repo.lock(gateway.name, dispute.id)
        const transition = disputeTransition(current?.status ?? "none", dispute.step)
        let row: DisputeRow = current ?? {
          gateway: gateway.name,
          disputeId: dispute.id,
          communityId: charge.communityId,
          chargeId: charge.id,
          status: transition.to,
          currency: charge.currency,
          amount: dispute.amount,
          held: 0,
          fee: 0,
          feeCurrency: null,
          reason: dispute.reason,
          openedAt: null,
          closedAt: null,
          updatedAt: at
        }
        if (current === undefined && !(yield* repo.insert(row))) {
          // another delivery stored it meanwhile: its state decides
          return yield* fromGateway(charge, dispute, takeBack)
        }
        if (current !== undefined && transition.to === current.status && transition.effects.length === 0) {
          return current.status
        }
        row = {
          ...row,
          status: transition.to,
          updatedAt: at,
          ...(dispute.step === "opened" ? { openedAt: row.openedAt ?? at } : { closedAt: row.closedAt ?? at })
        }
        for (const effect of transition.effects) row = yield* apply(row, dispute, effect, at, takeBack)
        yield* repo.update(row)
        return row.status
      })

    return ChargeDisputes.of({ fromGateway })
  })
).pipe(Layer.provide(DisputesRepo.Default))
