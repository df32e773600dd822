import { feature } from "../http/Feature"
import { IdentityHttp } from "./Http"
import { Identity } from "./Identity"

export const identityFeature = feature(Identity.Default, IdentityHttp)
