import { Layer } from "effect"
import { feature } from "../http/Feature"
import { ApiKeys } from "./ApiKeys"
import { ApiKeysHttp } from "./Http"
import { ApiKeysRepo } from "./Repo"

export const apiKeysFeature = feature(
  ApiKeys.Default.pipe(Layer.provideMerge(ApiKeysRepo.Default)),
  ApiKeysHttp
)
