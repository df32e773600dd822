import { Schema } from "effect"
import { Comment, ContentPost, StatusPost } from "../../social/Api"
import { type Payloads, withCommunity } from "./payload"

export const socialPayloads: Payloads = {
  "post.created": {
    summary:
      "A post was published: a status post (`postType: \"status\"`) or a post in a feed space (`postType: \"content\"`), as its route answers it",
    data: Schema.Union(
      withCommunity({ postType: Schema.Literal("status"), ...StatusPost.fields }),
      withCommunity({ postType: Schema.Literal("content"), ...ContentPost.fields })
    )
  },
  "comment.created": {
    summary: "A comment or a reply was written on a post, a lesson or an event (the comment)",
    data: withCommunity(Comment.fields)
  }
}
