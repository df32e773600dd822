import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { McpAccess, type McpCaller, type Roda } from "@roda/core"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newCommunity, type TestCommunity } from "../../core/test/support/community"
import { type Client as Api, client, startRoda } from "../../core/test/support/harness"
import { makeServer, tools } from "../src/index"
import { errorOf } from "./support"

let roda: Roda
let api: Api
let community: TestCommunity
let communityId: string
let owner: { token: string }
let member: { token: string; profileId: string }

const localCaller = (user: { token: string }) =>
  roda.runtime.runPromise(Effect.flatMap(McpAccess, (access) => access.authenticateLocal(user.token, communityId)))

/** The SDK's own client, connected in memory to the server of `caller`. */
const connect = async (caller: McpCaller) => {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  const server = makeServer(roda, caller)
  await server.connect(serverSide)
  const mcp = new Client({ name: "test", version: "1.0.0" })
  await mcp.connect(clientSide)
  // Listing first makes the SDK check every answer against the tool's output schema.
  await mcp.listTools()
  return mcp
}

beforeAll(async () => {
  roda = startRoda()
  api = client(roda)
  community = await newCommunity(api, "MCP")
  communityId = community.community.id
  owner = community.owner
  member = await community.addMember("member", "Mia Member")
})

afterAll(() => roda.dispose())

describe("the tool registry", () => {
  it("lists every tool with a title, hints and input and output schemas generated from the routes' schemas", async () => {
    const mcp = await connect(await localCaller(owner))
    const { tools: listed } = await mcp.listTools()
    expect(listed.map((tool) => tool.name)).toEqual(tools.map((tool) => tool.name))
    expect(new Set(listed.map((tool) => tool.name)).size).toBe(listed.length)
    for (const tool of listed) {
      expect(tool.title, tool.name).toBeTruthy()
      expect(tool.inputSchema.type).toBe("object")
      expect(tool.outputSchema?.type, tool.name).toBe("object")
      expect(typeof tool.annotations?.readOnlyHint).toBe("boolean")
      expect(typeof tool.annotations?.destructiveHint).toBe("boolean")
      expect(typeof tool.annotations?.idempotentHint).toBe("boolean")
    }
    const post = listed.find((tool) => tool.name === "create_status_post")!
    expect(post.inputSchema.required).toEqual(["body"])
    expect(post.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false })
    const cancel = listed.find((tool) => tool.name === "cancel_subscription_at_period_end")!
    // `when` is fixed by the tool and `refund` not offered; the path's id is.
    expect(Object.keys(cancel.inputSchema.properties ?? {})).toEqual(["subscriptionId"])
    expect(cancel.annotations?.destructiveHint).toBe(true)
    expect(listed.find((tool) => tool.name === "feed")!.annotations?.readOnlyHint).toBe(true)
    await mcp.close()
  })

  it("posts, comments and reacts as the member, answering the route's JSON (checked by the SDK against outputSchema)", async () => {
    const mcp = await connect(await localCaller(member))
    const posted = await mcp.callTool({ name: "create_status_post", arguments: { body: "  Olá, comunidade!  " } })
    expect(posted.isError).toBeFalsy()
    const post = (posted.structuredContent as any).data
    expect(post).toMatchObject({ body: "Olá, comunidade!", author: { id: member.profileId } })
    const over = await api.get(`/api/status`, { token: member.token, community: communityId })
    expect(over.body.data.map((p: { id: string }) => p.id)).toContain(post.id)

    const commented = await mcp.callTool({
      name: "comment",
      arguments: { type: "status", id: post.id, body: "Primeiro comentário" }
    })
    expect((commented.structuredContent as any).data).toMatchObject({ itemId: post.id, body: "Primeiro comentário" })
    // The route has `type` twice (item type in the path, reaction in the body): the tool calls the latter `reaction`.
    const reacted = await mcp.callTool({ name: "react", arguments: { type: "status", id: post.id, reaction: "love" } })
    expect((reacted.structuredContent as any).data).toMatchObject({ reaction: "love", reactionCount: 1 })
    const bad = await mcp.callTool({ name: "react", arguments: { type: "status", id: post.id, reaction: "meh" } })
    expect(errorOf(bad)).toMatchObject({ status: 400, errors: [{ param: "reaction" }] })

    const feed = await mcp.callTool({ name: "feed", arguments: { limit: 5 } })
    expect(feed.isError).toBeFalsy()
    expect((feed.structuredContent as any).pagination.limit).toBe(5)
    expect((feed.structuredContent as any).data.some((item: any) => JSON.stringify(item).includes(post.id))).toBe(
      true
    )
    // checked by the SDK against its output schema: the community as `GET /api/communities/my` lists it,
    // and `GET /api/feed/stats`'s data
    const overview = await mcp.callTool({ name: "community_overview", arguments: {} })
    const mine = await api.get("/api/communities/my", { token: member.token })
    const stats = await api.get("/api/feed/stats", { token: member.token, community: communityId })
    expect((overview.structuredContent as any).data).toEqual({
      community: mine.body.data.find((entry: { id: string }) => entry.id === communityId),
      you: { role: "member", profileId: member.profileId, fullName: expect.any(String) },
      stats: stats.body.data
    })
    await mcp.close()
  })

  it("answers a member calling a staff tool with the route's own 403, as a tool error", async () => {
    const mcp = await connect(await localCaller(member))
    const result = await mcp.callTool({ name: "list_coupons", arguments: {} })
    const http = await api.get("/api/coupons", { token: member.token, community: communityId })
    expect(http.status).toBe(403)
    expect(result.isError).toBe(true)
    expect(errorOf(result)).toMatchObject({ status: 403, message: http.body.message })
    expect((result.content as Array<{ text: string }>)[0]!.text).toContain(http.body.message)
    const tags = await mcp.callTool({ name: "set_member_tags", arguments: { id: member.profileId, tags: ["vip"] } })
    const httpTags = await api.put(`/api/profiles/${member.profileId}/tags`, { tags: ["vip"] }, {
      token: member.token,
      community: communityId
    })
    expect(errorOf(tags)).toMatchObject({ status: httpTags.status, message: httpTags.body.message })
    // The same staff tools work for the owner.
    const staff = await connect(await localCaller(owner))
    const coupons = await staff.callTool({ name: "list_coupons", arguments: {} })
    expect(coupons.isError).toBeFalsy()
    const tagged = await staff.callTool({ name: "set_member_tags", arguments: { id: member.profileId, tags: ["vip"] } })
    expect((tagged.structuredContent as any).data).toMatchObject({ id: member.profileId, tags: ["vip"] })
    const members = await staff.callTool({ name: "list_members", arguments: { tag: "vip" } })
    expect((members.structuredContent as any).data.map((p: { id: string }) => p.id)).toEqual([member.profileId])
    await mcp.close()
    await staff.close()
  })

  it("refuses invalid input with the field, as the route does (400, errors[].param)", async () => {
    const mcp = await connect(await localCaller(member))
    const empty = await mcp.callTool({ name: "create_status_post", arguments: { body: "   " } })
    const http = await api.post("/api/status", { body: "   " }, { token: member.token, community: communityId })
    expect(http.status).toBe(400)
    expect(empty.isError).toBe(true)
    expect(errorOf(empty)).toMatchObject({ status: 400, errors: [{ param: "body" }] })
    expect(errorOf(empty).errors![0]!.msg).toBe(http.body.errors[0].msg)

    const missing = await mcp.callTool({ name: "create_status_post", arguments: {} })
    expect(errorOf(missing)).toMatchObject({ status: 400, errors: [{ param: "body", msg: "body is required" }] })
    const unknown = await mcp.callTool({ name: "create_status_post", arguments: { body: "ok", pinned: true } })
    expect(errorOf(unknown)).toMatchObject({
      status: 400,
      errors: [{ param: "pinned", msg: "pinned is not allowed" }]
    })
    const badLimit = await mcp.callTool({ name: "feed", arguments: { limit: 1000 } })
    expect(errorOf(badLimit)).toMatchObject({ status: 400, errors: [{ param: "limit" }] })
    const badId = await mcp.callTool({ name: "get_space", arguments: { id: "not-a-uuid" } })
    expect(errorOf(badId)).toMatchObject({ status: 400, errors: [{ param: "id" }] })
    await expect(mcp.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/)
    await mcp.close()
  })

  it("refuses a write tool to a read-only connection, naming the scope, and changes nothing", async () => {
    const caller = await localCaller(member)
    const mcp = await connect({ ...caller, scopes: ["read"] })
    const refused = await mcp.callTool({ name: "create_status_post", arguments: { body: "não deve existir" } })
    expect(refused.isError).toBe(true)
    expect(errorOf(refused)).toMatchObject({ status: 403, challenge: expect.stringMatching(/insufficient_scope/) })
    expect(errorOf(refused).message).toContain("\"write\"")
    expect(errorOf(refused).challenge).toMatch(/scope="[^"]*write/)
    const posts = await api.get("/api/status", { token: member.token, community: communityId })
    expect(posts.body.data.some((p: { body: string }) => p.body === "não deve existir")).toBe(false)
    const read = await mcp.callTool({ name: "list_spaces", arguments: {} })
    expect(read.isError).toBeFalsy()
    await mcp.close()
  })
})

describe("bounds", () => {
  it("a report tool refuses a range of more than 10 years at once, as the route does", async () => {
    const mcp = await connect(await localCaller(owner))
    const started = performance.now()
    const widest = await mcp.callTool({
      name: "overview_report",
      arguments: { from: "0001-01-01", to: "9999-12-31", interval: "day" }
    })
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(widest.isError).toBe(true)
    const error = errorOf(widest)
    expect(error.status).toBe(400)
    expect(error.errors).toEqual([
      expect.objectContaining({ param: "from", msg: "the range must not span more than 10 years" })
    ])
    const tenYears = await mcp.callTool({
      name: "sales_report",
      arguments: { from: "2016-01-01", to: "2025-12-31", interval: "month" }
    })
    expect(tenYears.isError).toBeFalsy()
    expect((tenYears.structuredContent as any).data.series).toHaveLength(120)
    await mcp.close()
  })
})
