import { Layer } from "effect"
import { feature } from "../../http/Feature"
import { DownsellOffers } from "./DownsellOffers"
import { DownsellOffersHttp, PlansHttp, PricingTiersHttp, ProductsHttp } from "./Http"
import { Plans } from "./Plans"
import { Products } from "./Products"
import { Tiers } from "./Tiers"

export const catalogueFeature = feature(
  Layer.mergeAll(Products.Default, Plans.Default, DownsellOffers.Default, Tiers.Default),
  Layer.mergeAll(ProductsHttp, PlansHttp, DownsellOffersHttp, PricingTiersHttp)
)
