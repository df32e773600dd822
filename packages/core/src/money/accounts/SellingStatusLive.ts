import { Effect, Layer, Option } from "effect"
import { currencyOfCountry } from "../../domain/Money"
import { SellingAccountsRepo } from "./Repo"
import { SellingStatus } from "./SellingStatus"

/** `SellingStatus` read from business information and payout settings. */
export const SellingStatusLive = Layer.effect(
  SellingStatus,
  Effect.map(SellingAccountsRepo, (repo) => ({
    defaultCurrency: (communityId) =>
      Effect.map(repo.business(communityId), (row) => currencyOfCountry(Option.getOrUndefined(row)?.country)),
    approvedBusiness: (communityId) =>
      Effect.map(
        repo.business(communityId),
        Option.flatMap((row) =>
          row.status === "APPROVED"
            ? Option.some({ country: row.country, currency: currencyOfCountry(row.country) })
            : Option.none()
        )
      ),
    payoutsApproved: (communityId) =>
      Effect.map(repo.payout(communityId), (row) => Option.getOrUndefined(row)?.status === "APPROVED"),
    approvedPayoutMethod: (communityId) =>
      Effect.map(
        repo.payout(communityId),
        Option.flatMap((row) => row.status === "APPROVED" ? Option.some<string>(row.method) : Option.none())
      )
  }))
).pipe(Layer.provide(SellingAccountsRepo.Default))
