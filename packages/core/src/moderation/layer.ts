import { Layer } from "effect"
import { feature } from "../http/Feature"
import { Cases } from "./Cases"
import { ModerationHttp } from "./Http"
import { MemberActions } from "./Members"
import { Reports } from "./Reports"

/** Moderation: members' reports, the staff's cases and the log (platform.md "Moderation"). */
export const moderationFeature = feature(
  Layer.mergeAll(Reports.Default, Cases.Default, MemberActions.Default),
  ModerationHttp
)
