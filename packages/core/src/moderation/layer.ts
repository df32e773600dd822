import { Layer } from "effect"
import { feature } from "../http/Feature"
import { MemberBans } from "./Bans"
import { Cases } from "./Cases"
import { ModerationHttp } from "./Http"
import { MemberActions } from "./Members"
import { PendingQueue } from "./Pending"
import { Reports } from "./Reports"

/** Moderation: members' reports, the staff's cases and the log (platform.md "Moderation"). */
export const moderationFeature = feature(
  Layer.mergeAll(Reports.Default, Cases.Default, MemberActions.Default, MemberBans.Default, PendingQueue.Default),
  ModerationHttp
)
