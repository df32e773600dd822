import { ddl } from "./ddl"

/** Coupons and their redemptions (commerce/coupons). */
export default ddl()
