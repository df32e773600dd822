import { spawn } from "node:child_process"

export interface Exited {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs `command` with exactly `env` until it exits (killed after `timeoutMs`, if given): its exit code and output. */
export const runToEnd = (
  command: string,
  args: ReadonlyArray<string>,
  env: Record<string, string>,
  timeoutMs?: number
) =>
  new Promise<Exited>((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk) => (stdout += chunk))
    child.stderr.on("data", (chunk) => (stderr += chunk))
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.once("error", reject)
    child.once("close", (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
