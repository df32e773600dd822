import { Effect, Layer } from "effect"
import { ProductsRepo } from "./ProductsRepo"
import { Stock } from "./Stock"

/** `Stock` over the catalogue's products table. */
export const StockLive = Layer.effect(
  Stock,
  Effect.map(ProductsRepo, (repo) => ({ take: repo.takeStock, giveBack: repo.returnStock }))
).pipe(Layer.provide(ProductsRepo.Default))
