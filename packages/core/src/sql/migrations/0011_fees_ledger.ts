import { ddl } from "./ddl"

/** Fees, fee overrides and the ledger (money/ledger). */
export default ddl()
