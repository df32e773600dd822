import { ddl } from "./ddl"

/** Business information and payout settings (money/accounts). */
export default ddl()
