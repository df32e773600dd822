import { AppError, Communities, Feed, Messages, Profiles, Search, Sections, Spaces, viewerOfMember } from "@roda/core"
import { Effect, Schema } from "effect"
import { routeDataOf } from "../schemas"
import { reads, routeTool, sets, type ToolSpec } from "../tool"

/** One entry of `GET /api/communities/my` (the community, with the caller's role in it). */
const MyCommunity = (routeDataOf("communities", "my") as unknown as Schema.Array$<Schema.Schema.Any>).value

/** The overview's answer: the API's envelope around the community, the caller and `GET /api/feed/stats`'s data. */
const OverviewAnswer = Schema.Struct({
  success: Schema.Literal(true),
  message: Schema.String,
  data: Schema.Struct({
    community: MyCommunity,
    you: Schema.Struct({
      profileId: Schema.String,
      fullName: Schema.String,
      role: Schema.String
    }),
    stats: routeDataOf("feed", "stats")
  })
})

const overview: ToolSpec = {
  name: "community_overview",
  title: "Community overview",
  description:
    "The community this connection acts in: its name, slug and domain, who you are in it (profile and role), and the feed's counts. Start here.",
  hints: reads,
  route: ["feed", "stats"],
  output: OverviewAnswer,
  run: (_args, member) =>
    Effect.gen(function*() {
      const mine = yield* (yield* Communities).my(member.account)
      const community = mine.find((entry) => entry.id === member.communityId)
      // the connection's member is in the community, so `my` lists it unless it went meanwhile
      if (community === undefined) return yield* new AppError({ status: 404, text: Messages.communityNotFound })
      const stats = yield* (yield* Feed).stats(viewerOfMember(member))
      return {
        community,
        you: { profileId: member.profileId, fullName: member.account.fullName, role: member.role },
        stats
      }
    }),
  summary: (data) => `${data.community.name}: you are ${data.you.role}.`
}

export const communityTools: ReadonlyArray<ToolSpec> = [
  overview,
  routeTool("sections", "list", {
    name: "list_sections",
    title: "List sections",
    description:
      "The community's sections (groups of spaces) you can see, in order. Paginated: pass `cursor` from `pagination.nextCursor`.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Sections, (s) => s.list(viewerOfMember(member), urlParams))
  }),
  routeTool("sections", "get", {
    name: "get_section",
    title: "Read a section",
    description: "One section by id.",
    hints: reads,
    run: ({ path }, member) => Effect.flatMap(Sections, (s) => s.get(viewerOfMember(member), path.id))
  }),
  routeTool("spaces", "list", {
    name: "list_spaces",
    title: "List spaces",
    description:
      "The spaces you can see (optionally of one `sectionId`): title, module (posts, course, events…), visibility and access.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Spaces, (s) => s.list(viewerOfMember(member), urlParams))
  }),
  routeTool("spaces", "get", {
    name: "get_space",
    title: "Read a space",
    description: "One space by id.",
    hints: reads,
    run: ({ path }, member) => Effect.flatMap(Spaces, (s) => s.get(viewerOfMember(member), path.id))
  }),
  routeTool("search", "search", {
    name: "search",
    title: "Search the community",
    description:
      "Full-text search over what you can see: posts, courses, events, spaces and members (`q`, optional `type`).",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Search, (s) => s.search(viewerOfMember(member), urlParams))
  }),
  routeTool("feed", "list", {
    name: "feed",
    title: "Read the feed",
    description:
      "The community feed, newest first (status posts, content posts, courses, events). Paginated with `cursor`.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Feed, (f) => f.list(viewerOfMember(member), urlParams))
  }),
  routeTool("profiles", "list", {
    name: "list_members",
    title: "List members",
    description:
      "The community's members (filter by `role`, `tag`, `search`). Staff see every field (e-mail, phone, tags); other members the public view.",
    hints: reads,
    run: ({ urlParams }, member) => Effect.flatMap(Profiles, (p) => p.list(member, urlParams))
  }),
  routeTool("profiles", "setTags", {
    name: "set_member_tags",
    title: "Set a member's tags",
    description: "Staff: replaces the tags of the member profile `id` with `tags` (at most 50).",
    hints: sets,
    run: ({ path, payload }, member) => Effect.flatMap(Profiles, (p) => p.setTags(member, path.id, payload.tags))
  })
]
