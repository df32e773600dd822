import { Layer } from "effect"
import { feature } from "../http/Feature"
import { MailStats } from "../platform/MailStats"
import { ReportsHttp } from "./Http"
import { Reports } from "./Reports"

export const reportsFeature = feature(Reports.Default.pipe(Layer.provide(MailStats.layer)), ReportsHttp)
