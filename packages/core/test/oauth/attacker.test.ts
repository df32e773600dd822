import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { McpAccess } from "../../src/index"
import { newCommunity } from "../support/community"
import { client, startRoda } from "../support/harness"
import { authorizeAs, connectMcpClient, type ServedRoda, serveRoda } from "../support/oauth"
import { authenticate, token } from "./support"

/**
 * An attacker's view of the authorization server: what a client_id, a Client ID Metadata Document
 * or a token request can make Roda do. Documents are served over plain HTTP from 127.0.0.1 (the
 * test option), by a server the attacker controls.
 */
describe("OAuth attacker: hostile metadata documents and client ids", () => {
  let served: ServedRoda
  let documents: Server
  let base = ""
  /** The slow document answers when this is called (or after 4 s). */
  let release = () => {}
  let slowAsked = () => {}
  const slowArrived = new Promise<void>((resolve) => (slowAsked = resolve))

  beforeAll(async () => {
    served = await serveRoda({ oauthAllowHttpMetadataDocuments: true })
    documents = createServer((request, response) => {
      const self = `${base}${request.url}`
      const valid = { client_id: self, redirect_uris: ["http://127.0.0.1/cb"] }
      const hostile: Record<string, unknown> = {
        "/uris-number.json": { client_id: self, redirect_uris: 5 },
        "/name-number.json": { ...valid, client_name: 7 },
        "/grants-string.json": { ...valid, grant_types: "authorization_code" },
        "/name-nul.json": { ...valid, client_name: "Assistente\u0000" },
        "/uri-nul.json": { client_id: self, redirect_uris: ["http://127.0.0.1/cb\u0000"] },
        "/name-surrogate.json": { ...valid, client_name: "\ud800" }
      }
      if (request.url === "/slow.json") {
        slowAsked()
        const answer = () => response.end(JSON.stringify(valid))
        const timer = setTimeout(answer, 4000)
        release = () => {
          clearTimeout(timer)
          answer()
        }
        return
      }
      response.setHeader("content-type", "application/json")
      response.end(JSON.stringify(hostile[request.url!] ?? valid))
    })
    await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve))
    const address = documents.address()
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`
  })
  afterAll(async () => {
    release()
    documents.closeAllConnections()
    await new Promise((resolve) => documents.close(resolve))
    await served.close()
  })

  const start = (clientId: string) => authorizeAs(served.api, clientId)

  it("a metadata document of the wrong shape, or with text PostgreSQL cannot keep, is an unknown client (400), not a 500", async () => {
    const paths = [
      "/uris-number.json",
      "/name-number.json",
      "/grants-string.json",
      "/name-nul.json",
      "/uri-nul.json",
      "/name-surrogate.json"
    ]
    const replies = await Promise.all(paths.map((path) => start(`${base}${path}`)))
    expect(replies.map((reply, i) => [paths[i], reply.status])).toEqual(paths.map((path) => [path, 400]))
    for (const reply of replies) expect(reply.body).toContain("Unknown client_id.")
    // the same server's well-formed document is used
    expect((await start(`${base}/valid.json`)).status).toBe(302)
  })

  it("a client_id with a NUL character at the token endpoint is invalid_client (401), not a 500", async () => {
    const reply = await token(served.api, {
      grant_type: "authorization_code",
      code: "a-code",
      code_verifier: "v".repeat(43),
      redirect_uri: "http://127.0.0.1/cb",
      client_id: "client\u0000"
    })
    expect(reply.status).toBe(401)
    expect(reply.body.error).toBe("invalid_client")
  })

  it("a token request naming a slow metadata document does not hold the database while it waits", async () => {
    // Unauthenticated: any code will do. The token endpoint runs in the request's transaction; were
    // the document fetched there, the embedded database (one session) would wait on the attacker's
    // server, up to the 5 s fetch timeout, for every such request.
    const pending = token(served.api, {
      grant_type: "authorization_code",
      code: "any",
      code_verifier: "v".repeat(43),
      redirect_uri: "http://127.0.0.1/cb",
      client_id: `${base}/slow.json`
    })
    await Promise.race([slowArrived, pending])
    const meanwhile = await Promise.race([
      served.api.post("/oauth/register", { redirect_uris: ["http://127.0.0.1/cb"] }).then((reply) => reply.status),
      new Promise((resolve) => setTimeout(() => resolve("still waiting on the document"), 2500))
    ])
    release()
    expect(meanwhile).toBe(201)
    const answer = await pending
    // never fetched there: a client the server does not keep yet is unknown
    expect(answer.status).toBe(401)
    expect(answer.body.error).toBe("invalid_client")
  })
})

describe("OAuth attacker: the MCP audit", () => {
  const roda = startRoda()
  const api = client(roda)
  afterAll(() => roda.dispose())

  it("keeps every call, even one whose arguments hold text PostgreSQL cannot keep (no unaudited calls)", async () => {
    const { community, owner } = await newCommunity(api, "Audit evasion")
    const connection = await connectMcpClient(api, owner, community.id)
    const caller = await authenticate(roda, connection.accessToken)
    if ("failed" in caller) throw new Error("not authenticated")
    const hostile = [
      { body: "olá \ud800" },
      { ["key\u0000"]: "value" },
      { ["\udc00"]: ["\u0000", "\ud83d"] },
      // cut to a preview inside a surrogate pair
      { body: "😀".repeat(9000) }
    ]
    for (const args of hostile) {
      await roda.runtime.runPromise(
        Effect.flatMap(
          McpAccess,
          (mcp) =>
            mcp.recordCall({ caller, tool: "create_status_post", arguments: args, outcome: "error", durationMs: 1 })
        )
      )
    }
    const audit = await api.get("/api/oauth/audit", { token: owner.token, community: community.id })
    expect(audit.status).toBe(200)
    // Newest first by id: calls kept within one millisecond have ids in no set order, so compare as a set.
    const kept = audit.body.data.map((entry: { arguments: unknown }) => entry.arguments)
    expect(kept).toHaveLength(4)
    expect(kept).toEqual(expect.arrayContaining([
      { truncated: true, preview: expect.stringMatching(/^\{"body":"(😀)+\ufffd$/) },
      { ["\ufffd"]: ["", "\ufffd"] },
      { key: "value" },
      { body: "olá \ufffd" }
    ]))
  })
})
