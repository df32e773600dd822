import { Layer } from "effect"
import { feature } from "../http/Feature"
import { Comments } from "../social/Comments"
import { Reactions } from "../social/Reactions"
import { Feed } from "./Feed"
import { FeedHttp } from "./Http"

/**
 * The feed's reactions and comments on any item are the social feature's services: the same
 * (memoised) layers, provided here because a feature's handlers see only its own services and the
 * contracts (app/makeRoda.ts `apiLayer`).
 */
export const feedFeature = feature(
  Feed.Default,
  FeedHttp.pipe(Layer.provide(Layer.mergeAll(Reactions.Default, Comments.Default)))
)
