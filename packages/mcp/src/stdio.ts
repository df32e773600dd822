#!/usr/bin/env node
import { serveStdio, StdioStartError } from "./local"

serveStdio().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(
      !(error instanceof StdioStartError)
        ? error
        : error.startup
        ? `roda mcp could not start:\n${error.message}`
        : `roda mcp: ${error.message}`
    )
    process.exit(1)
  }
)
