import { Clock, Effect, Layer } from "effect"
import { AccountGrants } from "./Grants"
import { OAuthRepo } from "./Repo"

/** `AccountGrants` over the OAuth server's connections. */
export const AccountGrantsLive = Layer.effect(
  AccountGrants,
  Effect.map(OAuthRepo, (repo) => ({
    revokeAll: (accountId: string, reason: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (millis) => repo.revokeAccount(accountId, reason, new Date(millis)))
  }))
).pipe(Layer.provide(OAuthRepo.Default))
