import { feature } from "../http/Feature"
import { Feed } from "./Feed"
import { FeedHttp } from "./Http"

export const feedFeature = feature(Feed.Default, FeedHttp)
