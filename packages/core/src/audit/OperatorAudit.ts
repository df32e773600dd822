import { Context, type Effect } from "effect"
import type { Account } from "../domain/Caller"

/** What an operator did, as the audit log names it (`GET /api/admin/audit?action=`). */
export const auditActions = [
  "business_information.approve",
  "business_information.reject",
  "payout_settings.approve",
  "payout_settings.reject",
  "fee_override.set",
  "fee_override.remove",
  "payout.in_transit",
  "payout.paid",
  "payout.failed",
  "certificates.issue",
  "certificate.retry",
  "certificate.revoke",
  "gateway_account.set",
  "gateway_account.remove",
  "account.sessions_end",
  "account.erase"
] as const
export type AuditAction = typeof auditActions[number]

export const auditTargetTypes = [
  "business_information",
  "payout_settings",
  "fee_override",
  "payout",
  "certificate_batch",
  "certificate",
  "gateway_account",
  "account"
] as const
export type AuditTargetType = typeof auditTargetTypes[number]

export interface AuditRecord {
  /** Who acted: the token's account over HTTP, the `--as` operator in the CLI. */
  readonly actor: Pick<Account, "id" | "email">
  readonly action: AuditAction
  /** What was acted on (a fee override is named by its payment method, in `community`). */
  readonly target: { readonly type: AuditTargetType; readonly id: string }
  readonly community?: string | undefined
  /** What the action needs to be understood later (a reason, amounts); secret-looking keys are never stored. */
  readonly details?: Readonly<Record<string, unknown>> | undefined
}

/**
 * The operator audit log (issue 16): who did what to which record. A service calls `record` inside
 * the transaction of the action it records, so a rolled-back action leaves no row and a committed one
 * always has one.
 */
export class OperatorAudit extends Context.Tag("@roda/core/OperatorAudit")<OperatorAudit, {
  readonly record: (entry: AuditRecord) => Effect.Effect<void>
}>() {}
