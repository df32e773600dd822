import { Effect } from "effect"
import type { ErasureStep } from "../privacy/PersonalData"
import { AccountGrants } from "./Grants"

/**
 * OAuth's part of an erasure: every connection (assistant grant) of the account is revoked and its
 * unexchanged codes voided, as a sign-out everywhere does (`AccountGrants.revokeAll`).
 */
export const oauthErasure = Effect.map(AccountGrants, (grants): ErasureStep => ({
  feature: "oauth",
  erase: (subject) => Effect.asVoid(grants.revokeAll(subject.accountId, "account erased"))
}))
