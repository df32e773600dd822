import type { Roda } from "@roda/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newCommunity } from "../../core/test/support/community"
import { type Client as Api, client, startRoda } from "../../core/test/support/harness"
import { connectMcpClient } from "../../core/test/support/oauth"
import { makeMcpHandler } from "../src/index"
import { errorOf } from "./support"

let roda: Roda
let api: Api
let handler: (request: Request) => Promise<Response>
let communityId: string
let owner: { token: string }
let member: { token: string }

beforeAll(async () => {
  roda = startRoda()
  api = client(roda)
  handler = makeMcpHandler(roda)
  const community = await newCommunity(api, "MCP attacker")
  communityId = community.community.id
  owner = community.owner
  member = await community.addMember("member", "Mia Member")
})

afterAll(() => roda.dispose())

const post = (token: string, body: BodyInit, headers: Record<string, string> = {}) =>
  handler(
    new Request("http://roda.test/mcp", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${token}`,
        ...headers
      },
      body,
      // a stream body
      ...(body instanceof ReadableStream ? { duplex: "half" } : {})
    } as RequestInit)
  )

const callTool = async (token: string, name: string, args: unknown) => {
  const answer = await post(
    token,
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args } })
  )
  expect(answer.status).toBe(200)
  return (await answer.json()).result
}

describe("MCP attacker: what a connected assistant can send", () => {
  it("a NUL character or an unpaired surrogate in a tool's arguments is a 400 naming the argument, as at the API, not a server error", async () => {
    const { accessToken } = await connectMcpClient(api, member, communityId)
    const cases: ReadonlyArray<[string, Record<string, unknown>, string, string]> = [
      ["create_status_post", { body: "olá\u0000" }, "body", "Request contains a NUL character"],
      ["search", { q: "a\u0000b" }, "q", "Request contains a NUL character"],
      ["list_members", { search: "\u0000" }, "search", "Request contains a NUL character"],
      ["create_status_post", { body: "olá \ud800" }, "body", "Request body is not valid Unicode"]
    ]
    for (const [tool, args, param, message] of cases) {
      const result = await callTool(accessToken, tool, args)
      expect(result.isError, tool).toBe(true)
      expect(errorOf(result), tool).toMatchObject({ status: 400, message, errors: [{ param }] })
    }
    // the API refuses the same text in a body with 400, before any route
    const http = await api.post("/api/status", { body: "olá\u0000" }, { token: member.token, community: communityId })
    expect(http.status).toBe(400)
    const posts = await api.get("/api/status", { token: member.token, community: communityId })
    expect(posts.body.data.some((p: { body: string }) => p.body.startsWith("olá"))).toBe(false)
  })

  it("a body that never ends is cut past 1 MB (413), not read into memory for as long as it is sent", async () => {
    const { accessToken } = await connectMcpClient(api, owner, communityId)
    let sent = 0
    let stop = false
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => {
        if (stop) return controller.close()
        sent += 64 * 1024
        controller.enqueue(new Uint8Array(64 * 1024).fill(0x20))
      }
    })
    const answer = await Promise.race([
      post(accessToken, endless),
      new Promise<"still reading">((resolve) => setTimeout(() => resolve("still reading"), 5000))
    ])
    stop = true
    expect(answer).toBeInstanceOf(Response)
    expect((answer as Response).status).toBe(413)
    expect(sent).toBeLessThan(4 * 1024 * 1024)
  })

  it("after the connection is disconnected, its access token is refused at /mcp (401 with the challenge)", async () => {
    const connection = await connectMcpClient(api, member, communityId)
    const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" })
    expect((await post(connection.accessToken, list)).status).toBe(200)
    const removed = await api.del(`/api/oauth/connections/${connection.connectionId}`, {
      token: owner.token,
      community: communityId
    })
    expect(removed.status).toBe(200)
    const refused = await post(connection.accessToken, list)
    expect(refused.status).toBe(401)
    expect(refused.headers.get("www-authenticate")).toContain("resource_metadata=")
  })
})
