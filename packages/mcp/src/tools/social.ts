import { Comments, Reactions, StatusPosts } from "@roda/core"
import { Effect } from "effect"
import { adds, routeTool, sets, type ToolSpec } from "../tool"

export const socialTools: ReadonlyArray<ToolSpec> = [
  routeTool("status", "create", {
    name: "create_status_post",
    title: "Post a status",
    description:
      "Posts a community-wide status as you. `body`: 1 to 5000 characters; mention with `@[Full Name](profileId)`.",
    hints: adds,
    run: ({ payload }, member) => Effect.flatMap(StatusPosts, (p) => p.create(member, payload.body))
  }),
  routeTool("feed", "comment", {
    name: "comment",
    title: "Comment on an item",
    description:
      "Comments on a feed item (`type`: status, content, course or event; `id`). Replies: `parentId` of a top-level comment.",
    hints: adds,
    run: ({ path, payload }, member) => Effect.flatMap(Comments, (c) => c.add(member, path.type, path.id, payload))
  }),
  routeTool("feed", "react", {
    name: "react",
    title: "React to an item",
    description:
      "Reacts to a feed item (`type`: status, content, course or event; `id`) with `reaction`: like, love, celebrate, insightful or funny. The same reaction again removes it.",
    hints: sets,
    rename: { payload: { type: "reaction" } },
    run: ({ path, payload }, member) =>
      Effect.flatMap(Reactions, (r) => r.react(member, path.type, path.id, payload.type))
  })
]
