import { Layer } from "effect"
import { feature } from "../http/Feature"
import { CallRoles } from "./calls/CallRoles"
import { Calls } from "./calls/Calls"
import { CallsHttp } from "./calls/Http"
import { SubmissionsHttp } from "./submissions/Http"
import { Submissions } from "./submissions/Submissions"

/**
 * Calls for papers, both halves in one feature: calls (space configuration, calls, tracks, event
 * dates, owners, track reviewers) and submissions. Each half adds its services to `services` and its
 * group handlers to `handlers`; `CallRoles` is provided to every service listed here.
 */
const services = Layer.mergeAll(
  Calls.Default,
  Submissions.Default
).pipe(Layer.provideMerge(CallRoles.Default))

const handlers = Layer.mergeAll(
  CallsHttp,
  SubmissionsHttp
)

export const call4papersFeature = feature(services, handlers)
