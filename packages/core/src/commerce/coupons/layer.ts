import { feature } from "../../http/Feature"
import { Coupons } from "./Coupons"
import { CouponsHttp } from "./Http"

export const couponsFeature = feature(Coupons.Default, CouponsHttp)
