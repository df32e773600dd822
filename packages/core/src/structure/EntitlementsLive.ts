import { Effect, Layer } from "effect"
import { Entitlements } from "./Entitlements"
import { StructureRepo } from "./Repo"

/** `Entitlements` over structure's own table. */
export const EntitlementsLive = Layer.effect(
  Entitlements,
  Effect.map(StructureRepo, (repo) => ({ grant: repo.insertEntitlements }))
).pipe(Layer.provide(StructureRepo.Default))
