/** The catalogue's HTTP groups: products, plans with their downsell offers, and the public pricing page. */
export { DownsellOffersApi, PlansApi } from "./PlansApi"
export { ProductsApi } from "./ProductsApi"
export { PricingTiersApi } from "./TiersApi"
