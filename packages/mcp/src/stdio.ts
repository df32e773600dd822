#!/usr/bin/env node
import { serveStdio, StdioStartError } from "./local"

serveStdio().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof StdioStartError ? `roda mcp: ${error.message}` : error)
    process.exit(1)
  }
)
