import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentMember, CurrentVisitor } from "../../domain/Caller"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok, page } from "../../http/Reply"
import { viewerOfVisitor } from "../../structure/Access"
import { DownsellOffers } from "./DownsellOffers"
import { catalogueMessages } from "./messages"
import { Plans } from "./Plans"
import { Products } from "./Products"
import { Tiers } from "./Tiers"

export const ProductsHttp = apiGroup(RodaApi, "products", (handlers) =>
  Effect.gen(function*() {
    const products = yield* Products
    return handlers
      .handle("list", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => products.list(member, urlParams)),
          Effect.flatMap((result) => page(catalogueMessages.products, result))
        ))
      .handle("create", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => products.create(member, payload)),
          Effect.flatMap((data) => ok(catalogueMessages.productCreated, data))
        ))
      .handle("detail", ({ path }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => products.detail(viewerOfVisitor(visitor), path.id)),
          Effect.flatMap((data) => ok(catalogueMessages.product, data))
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => products.update(member, path.id, payload)),
          Effect.flatMap((data) => ok(catalogueMessages.productUpdated, data))
        ))
      .handle("publish", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => products.publish(member, path.id)),
          Effect.flatMap((data) => ok(catalogueMessages.productPublished, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => products.remove(member, path.id)),
          Effect.zipRight(ok(catalogueMessages.productDeleted, null))
        ))
  }))

export const PlansHttp = apiGroup(RodaApi, "subscriptionGroups", (handlers) =>
  Effect.gen(function*() {
    const plans = yield* Plans
    return handlers
      .handle("list", ({ urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => plans.list(member, urlParams)),
          Effect.flatMap((result) => page(catalogueMessages.plans, result))
        ))
      .handle("create", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => plans.create(member, payload)),
          Effect.flatMap((data) => ok(catalogueMessages.planCreated, data))
        ))
      .handle("reorder", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => plans.reorder(member, payload.ids)),
          Effect.flatMap((data) => ok(catalogueMessages.plansReordered, data))
        ))
      .handle("detail", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => plans.detail(member, path.id)),
          Effect.flatMap((data) => ok(catalogueMessages.plan, data))
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => plans.update(member, path.id, payload)),
          Effect.flatMap((data) => ok(catalogueMessages.planUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => plans.remove(member, path.id)),
          Effect.zipRight(ok(catalogueMessages.planDeleted, null))
        ))
      .handle("products", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => plans.products(member, path.id)),
          Effect.flatMap((data) => ok(catalogueMessages.planProducts, data))
        ))
  }))

export const DownsellOffersHttp = apiGroup(RodaApi, "downsellOffers", (handlers) =>
  Effect.gen(function*() {
    const offers = yield* DownsellOffers
    return handlers
      .handle("list", ({ path, urlParams }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => offers.list(member, path.id, urlParams)),
          Effect.flatMap((result) => page(catalogueMessages.downsellOffers, result))
        ))
      .handle("create", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => offers.create(member, path.id, payload)),
          Effect.flatMap((data) => ok(catalogueMessages.downsellOfferCreated, data))
        ))
      .handle("detail", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => offers.detail(member, path.id, path.offerId)),
          Effect.flatMap((data) => ok(catalogueMessages.downsellOffer, data))
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => offers.update(member, path.id, path.offerId, payload)),
          Effect.flatMap((data) => ok(catalogueMessages.downsellOfferUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => offers.remove(member, path.id, path.offerId)),
          Effect.zipRight(ok(catalogueMessages.downsellOfferDeleted, null))
        ))
  }))

export const PricingTiersHttp = apiGroup(RodaApi, "pricingTiers", (handlers) =>
  Effect.gen(function*() {
    const tiers = yield* Tiers
    return handlers
      .handle("list", ({ urlParams }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => tiers.list(visitor.communityId, urlParams)),
          Effect.flatMap((result) => page(catalogueMessages.tiers, result))
        ))
      .handle("create", ({ payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => tiers.create(member, payload)),
          Effect.flatMap((data) => ok(catalogueMessages.tierCreated, data))
        ))
      .handle("detail", ({ path }) =>
        CurrentVisitor.pipe(
          Effect.flatMap((visitor) => tiers.detail(visitor.communityId, path.id)),
          Effect.flatMap((data) => ok(catalogueMessages.tier, data))
        ))
      .handle("update", ({ path, payload }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => tiers.update(member, path.id, payload)),
          Effect.flatMap((data) => ok(catalogueMessages.tierUpdated, data))
        ))
      .handle("remove", ({ path }) =>
        CurrentMember.pipe(
          Effect.flatMap((member) => tiers.remove(member, path.id)),
          Effect.zipRight(ok(catalogueMessages.tierDeleted, null))
        ))
  }))
