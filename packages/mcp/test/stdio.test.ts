import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { defaultOptions, makeRoda, RATE_LIMITS_OFF, secret } from "@roda/core/node"
import { spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newCommunity } from "../../core/test/support/community"
import { client } from "../../core/test/support/harness"
import { errorOf } from "./support"

/** The BUILT entry, as an assistant's configuration runs it (built by `pnpm build`, else by testing/builtPackages.ts). */
const STDIO = fileURLToPath(new URL("../dist/stdio.js", import.meta.url))
const JWT_SECRET = "stdio-test-secret-that-is-long-enough-for-hs256"
const WEBHOOK_SECRET = "whsec_dGVzdC1zYW5kYm94LXdlYmhvb2stc2VjcmV0LWtleQ=="

let dataDir: string
let communityId: string
let member: { token: string; profileId: string }
let readKey: { id: string; key: string }
let ownerToken: string

/** The environment of the spawned server: the seeded database (a temp folder, or DATABASE_URL). */
const environment = (extra: Record<string, string>) => ({
  PATH: process.env.PATH ?? "",
  JWT_SECRET,
  SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
  PAYMENT_GATEWAY: "sandbox",
  ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : { DATA_DIR: dataDir }),
  ...extra
})

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "roda-mcp-stdio-"))
  // Seeded through the HTTP API of a Roda on the same database; closed before the server opens it
  // (the embedded database has one process at a time).
  const roda = makeRoda({
    database: process.env.DATABASE_URL
      ? { _tag: "Postgres", url: secret(process.env.DATABASE_URL) }
      : { _tag: "Embedded", dataDir: join(dataDir, "pg") },
    options: defaultOptions({
      jwtSecret: secret(JWT_SECRET),
      sandboxWebhookSecret: secret(WEBHOOK_SECRET),
      rateLimits: RATE_LIMITS_OFF
    })
  })
  const community = await newCommunity(client(roda), "MCP stdio")
  communityId = community.community.id
  member = await community.addMember("member", "Mia Member")
  ownerToken = community.owner.token
  const made = await client(roda).post("/api/api-keys", {
    name: "assistente local",
    scopes: ["community:read", "content:read"]
  }, { token: ownerToken, community: communityId })
  readKey = made.body.data
  await roda.dispose()
})

afterAll(() => rm(dataDir, { recursive: true, force: true }))

describe("MCP over stdio (node packages/mcp/dist/stdio.js)", () => {
  it("serves the same tools to the SDK's StdioClientTransport, as the member of RODA_TOKEN", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STDIO],
      env: environment({ RODA_TOKEN: member.token, RODA_COMMUNITY_ID: communityId }),
      stderr: "pipe"
    })
    const mcp = new Client({ name: "stdio-test", version: "1.0.0" })
    await mcp.connect(transport)
    const { tools } = await mcp.listTools()
    expect(tools.length).toBeGreaterThan(25)
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe("object")
    const overview = await mcp.callTool({ name: "community_overview", arguments: {} })
    expect((overview.structuredContent as any).data.you).toMatchObject({ profileId: member.profileId })
    const posted = await mcp.callTool({ name: "create_status_post", arguments: { body: "Olá via stdio" } })
    expect((posted.structuredContent as any).data).toMatchObject({
      body: "Olá via stdio",
      author: { id: member.profileId }
    })
    const feed = await mcp.callTool({ name: "feed", arguments: {} })
    expect(JSON.stringify((feed.structuredContent as any).data)).toContain("Olá via stdio")
    const staff = await mcp.callTool({ name: "list_coupons", arguments: {} })
    expect(staff.isError).toBe(true)
    expect(errorOf(staff)).toMatchObject({ status: 403, message: expect.stringContaining("member") })
    const invalid = await mcp.callTool({ name: "create_status_post", arguments: { body: 42 } })
    expect(errorOf(invalid)).toMatchObject({ status: 400, errors: [{ param: "body" }] })
    await mcp.close()
  })

  it("writes nothing but JSON-RPC to stdout, and refuses to start without valid credentials", async () => {
    const run = (env: Record<string, string>, input: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [STDIO], { env: environment(env) })
        let stdout = ""
        let stderr = ""
        child.stdout.on("data", (chunk) => (stdout += chunk))
        child.stderr.on("data", (chunk) => (stderr += chunk))
        child.on("close", (code) => resolve({ code, stdout, stderr }))
        child.stdin.end(input)
      })
    const messages = [
      {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "raw", version: "1" }
        }
      },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "community_overview", arguments: {} } }
    ]
    const served = await run(
      { RODA_TOKEN: member.token, RODA_COMMUNITY_ID: communityId },
      messages.map((m) => JSON.stringify(m) + "\n").join("")
    )
    const lines = served.stdout.trim().split("\n")
    expect(lines.map((line) => JSON.parse(line).id)).toEqual([1, 2])
    expect(JSON.parse(lines[1]!).result.structuredContent.data.you.role).toBe("member")

    const refused = await run({ RODA_TOKEN: "not-a-token", RODA_COMMUNITY_ID: communityId }, "")
    expect(refused.code).toBe(1)
    expect(refused.stdout).toBe("")
    expect(refused.stderr).toMatch(/401/)
    const missing = await run({}, "")
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/RODA_API_KEY/)
    expect(missing.stderr).toMatch(/RODA_TOKEN/)
  })

  it("takes RODA_API_KEY alone: the key's community, its creator's role, its scopes; checked before each call", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STDIO],
      env: environment({ RODA_API_KEY: readKey.key }),
      stderr: "pipe"
    })
    const mcp = new Client({ name: "stdio-key-test", version: "1.0.0" })
    await mcp.connect(transport)
    const overview = await mcp.callTool({ name: "community_overview", arguments: {} })
    expect(overview.isError, JSON.stringify(overview)).toBeFalsy()
    expect((overview.structuredContent as any).data.you.role).toBe("owner")
    const sections = await mcp.callTool({ name: "list_sections", arguments: {} })
    expect(sections.isError).toBeFalsy()
    const post = await mcp.callTool({ name: "create_status_post", arguments: { body: "Sem escopo" } })
    expect(errorOf(post)).toMatchObject({ status: 403, code: "api_key_scope_missing" })
    expect(errorOf(post).message).toContain("content:write")
    if (process.env.DATABASE_URL) {
      // revoked through the API while the stdio server runs: its next call is refused
      const roda = makeRoda({
        database: { _tag: "Postgres", url: secret(process.env.DATABASE_URL) },
        options: defaultOptions({ jwtSecret: secret(JWT_SECRET), rateLimits: RATE_LIMITS_OFF })
      })
      try {
        const revoked = await client(roda).del(`/api/api-keys/${readKey.id}`, {
          token: ownerToken,
          community: communityId
        })
        expect(revoked.status).toBe(200)
      } finally {
        await roda.dispose()
      }
      const after = await mcp.callTool({ name: "list_sections", arguments: {} })
      expect(errorOf(after)).toMatchObject({ status: 401, message: "Invalid or expired token" })
    }
    await mcp.close()
  })
})
