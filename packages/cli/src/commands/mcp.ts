import { Command } from "@effect/cli"
import { serveStdio, StdioStartError } from "@roda/mcp"
import { Effect } from "effect"
import { failure } from "../errors"
import { text } from "../lang"

/**
 * `@roda/mcp` over stdio for an assistant on this machine (stdout carries JSON-RPC only), until
 * stdin closes. Credentials from the environment: `RODA_API_KEY`, or `RODA_TOKEN` and `RODA_COMMUNITY_ID`.
 */
export const mcpCommand = Command.make(
  "mcp",
  {},
  () =>
    Effect.tryPromise({ try: () => serveStdio(), catch: (error) => error }).pipe(
      Effect.catchAll((error) =>
        error instanceof StdioStartError ? Effect.fail(failure(text(error.message, error.message))) : Effect.die(error)
      )
    )
).pipe(
  Command.withDescription(
    "Serve the MCP tools over stdio (RODA_API_KEY, or RODA_TOKEN and RODA_COMMUNITY_ID, name the caller; the server's environment)"
  )
)
