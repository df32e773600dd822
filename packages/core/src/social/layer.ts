import { Layer } from "effect"
import { feature } from "../http/Feature"
import { Comments } from "./Comments"
import { ContentPosts } from "./ContentPosts"
import { ContentHttp, StatusHttp } from "./Http"
import { SocialItems } from "./items"
import { Reactions } from "./Reactions"
import { StatusPosts } from "./StatusPosts"

export const socialFeature = feature(
  Layer.mergeAll(SocialItems.Default, Reactions.Default, Comments.Default, StatusPosts.Default, ContentPosts.Default),
  Layer.mergeAll(StatusHttp, ContentHttp)
)
