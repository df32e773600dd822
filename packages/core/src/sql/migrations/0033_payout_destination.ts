import { ddl } from "./ddl"

/**
 * Where a payout's money went: the approved payout settings' destination when the payout goes in
 * transit (a Pix key or a bank account, as text). Payouts moved before this migration keep null.
 */
export default ddl(`ALTER TABLE payouts ADD COLUMN destination text`)
