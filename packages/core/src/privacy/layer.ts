import { Layer } from "effect"
import { feature } from "../http/Feature"
import { Erasure } from "./Erasure"
import { ErasureHttp } from "./ErasureHttp"
import { ExportJobs } from "./exportJob"
import { Exports } from "./Exports"
import { PrivacyExportsHttp } from "./ExportsHttp"
import { ExportsRepo } from "./ExportsRepo"

/** Members' data rights (issue 56): exports of an account's data, and its erasure (`DELETE /api/account`). */
export const privacyFeature = feature(
  Layer.mergeAll(Exports.Default, ExportJobs, Erasure.Default).pipe(Layer.provideMerge(ExportsRepo.Default)),
  Layer.merge(PrivacyExportsHttp, ErasureHttp)
)
