import { Effect, Layer, Option } from "effect"
import { currencyOfCountry } from "../../domain/Money"
import { type PayoutFields, SellingAccountsRepo } from "./Repo"
import { SellingStatus } from "./SellingStatus"

/**
 * Where approved settings send money, as a payout records it: the Pix key with its type, or the bank
 * account (bank, branch, number, type and holder's name; not the holder's tax id).
 */
const destinationOf = (row: PayoutFields) => {
  if (row.method === "PIX") return `PIX ${row.pixKeyType ?? "key"} ${row.pixKey ?? ""}`.trim()
  const account = row.bankAccount
  if (account === null) return "BANK_ACCOUNT"
  const number = account.accountDigit ? `${account.accountNumber}-${account.accountDigit}` : account.accountNumber
  return `BANK_ACCOUNT bank ${account.bankCode} branch ${account.branch} account ${number} ${account.accountType} ${account.holderName}`
}

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
    approvedPayout: (communityId) =>
      Effect.map(
        repo.payout(communityId),
        Option.flatMap((row) =>
          row.status === "APPROVED"
            ? Option.some({ method: row.method, destination: destinationOf(row) })
            : Option.none()
        )
      )
  }))
).pipe(Layer.provide(SellingAccountsRepo.Default))
