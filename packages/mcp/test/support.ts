import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { McpAccess, type Roda } from "@roda/core"
import { Effect } from "effect"
import { makeServer } from "../src/index"

/** The error envelope a tool error carries as its text (`success: false`, `status`, `code`, `message`, `errors`). */
export const errorOf = (result: unknown) =>
  JSON.parse(((result as { content: unknown }).content as Array<{ text: string }>)[0]!.text) as {
    success: false
    status: number
    code: string
    message: string
    errors?: Array<{ param: string; msg: string }>
    challenge?: string
  }

/**
 * The SDK's own client, connected in memory to a server acting as `token`'s member of `communityId`.
 * It lists the tools first, which makes the SDK check every answer against the tool's output schema.
 */
export const connectInMemory = async (roda: Roda, token: string, communityId: string) => {
  const caller = await roda.runtime.runPromise(
    Effect.flatMap(McpAccess, (access) => access.authenticateLocal(token, communityId))
  )
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
  await makeServer(roda, caller).connect(serverSide)
  const mcp = new Client({ name: "roda-test", version: "1.0.0" })
  await mcp.connect(clientSide)
  await mcp.listTools()
  return mcp
}
