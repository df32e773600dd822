// The primary of `WORKERS` processes (workers.ts): checks the environment once, then forks.
import { Cause, Effect, Exit } from "effect"
import { loadConfigWith } from "./config"
import { runPrimary, workerCount } from "./workers"

const checked = await Effect.runPromiseExit(loadConfigWith({ connect: true, missingDataDir: "create" }))
if (Exit.isFailure(checked)) {
  const error = Cause.squash(checked.cause)
  process.stderr.write(`Roda could not start:\n${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
process.exit(await runPrimary(workerCount(process.env)))
