import { Layer } from "effect"
import { feature } from "../http/Feature"
import { SectionsHttp, SpacesHttp } from "./Http"
import { Sections } from "./Sections"
import { Spaces } from "./Spaces"

export const structureFeature = feature(
  Layer.mergeAll(Sections.Default, Spaces.Default),
  Layer.mergeAll(SectionsHttp, SpacesHttp)
)
