import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool
} from "@modelcontextprotocol/sdk/types.js"
import type { AppError, McpCaller, Roda } from "@roda/core"
import { Effect, Either } from "effect"
import { failure, type Language, runTool, toolNamed } from "./call"
import { inputSchemaOf, outputSchemaOf } from "./schemas"
import type { RodaServices, ToolSpec } from "./tool"
import { tools } from "./tools"

export const SERVER_NAME = "roda"
export const SERVER_VERSION = "0.1.0"

const INSTRUCTIONS =
  "Roda is a community platform. These tools act in one community as the account that connected, with its role: " +
  "what the account may not do through the app it may not do here (the tool answers the same error). Amounts are " +
  "integers in minor units (cents). Lists are paginated: pass `pagination.nextCursor` back as `cursor`."

const describe = (tool: ToolSpec): Tool => {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputSchemaOf(tool) as Tool["inputSchema"],
    outputSchema: outputSchemaOf(tool) as Tool["outputSchema"],
    annotations: { title: tool.title, ...tool.hints, openWorldHint: false }
  }
}

let listing: Array<Tool> | undefined
/** The tool list, built once: its schemas are generated from the routes' Effect schemas. */
export const toolListing = () => listing ??= tools.map(describe)

/** An MCP server acting as `caller`, its tools run on `roda`'s services. */
export const makeServer = (
  roda: Roda,
  caller: McpCaller,
  language: Language = "pt",
  /** Filled with the tool calls running, for a transport that must finish them before closing (stdio). */
  inFlight?: Set<Promise<unknown>>,
  /** The caller read again before each tool call (stdio, whose process outlives a revocation). */
  recheck?: Effect.Effect<McpCaller, AppError, RodaServices>
) => {
  const server = new Server(
    { name: SERVER_NAME, title: "Roda", version: SERVER_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS }
  )
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: toolListing() }))
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const tool = toolNamed(request.params.name)
    if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`)
    const args = request.params.arguments ?? {}
    const call = recheck === undefined
      ? runTool(caller, tool, args, language)
      : Effect.flatMap(
        Effect.either(recheck),
        (current) =>
          Either.isLeft(current)
            ? Effect.succeed(failure(current.left, language))
            : runTool(current.right, tool, args, language)
      )
    const running = roda.runtime.runPromise(call, { signal: extra.signal })
    if (inFlight) {
      inFlight.add(running)
      const forget = () => inFlight.delete(running)
      running.then(forget, forget)
    }
    return running
  })
  return server
}
