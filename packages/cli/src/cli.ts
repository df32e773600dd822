import { Command } from "@effect/cli"
import { admin } from "./commands/admin"
import { certificates } from "./commands/certificates"
import { mcpCommand } from "./commands/mcp"
import { migrateCommand } from "./commands/migrate"
import { payouts } from "./commands/payouts"
import { serveCommand } from "./commands/serve"

/** `roda`: every command. */
export const command = Command.make("roda").pipe(
  Command.withDescription("Roda: run the server, migrate the database, and operate the platform"),
  Command.withSubcommands([serveCommand, migrateCommand, mcpCommand, admin, payouts, certificates])
)
