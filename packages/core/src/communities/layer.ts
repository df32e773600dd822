import { Layer } from "effect"
import { feature } from "../http/Feature"
import { Communities } from "./Communities"
import { CommunitiesHttp } from "./Http"
import { Profiles } from "./Profiles"
import { ProfilesHttp } from "./ProfilesHttp"

export const communitiesFeature = feature(
  Layer.mergeAll(Communities.Default, Profiles.Default),
  Layer.mergeAll(CommunitiesHttp, ProfilesHttp)
)
