import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { delimiter, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { MCP_PATH } from "../../http-node/src/mcp"

const ROOT = fileURLToPath(new URL("../../../", import.meta.url))
const README = readFileSync(join(ROOT, "README.md"), "utf8")

/** The JSON block that follows `<!-- mcp-snippet: name -->` in the root README, parsed. */
const snippet = (name: string) => {
  const match = new RegExp(`<!-- mcp-snippet: ${name} -->\\s*\`\`\`json\\n([\\s\\S]*?)\\n\`\`\``).exec(README)
  if (match === null) throw new Error(`README.md has no mcp-snippet ${name}`)
  return JSON.parse(match[1]!) as { mcpServers: Record<string, Record<string, any>> }
}

const onPath = (command: string) =>
  (process.env.PATH ?? "").split(delimiter).some((dir) => existsSync(join(dir, command)))

describe("the README's MCP configuration snippets", () => {
  it("Claude Desktop (stdio): node runs the built entry, which reads exactly the env the snippet sets", async () => {
    const server = snippet("claude-desktop").mcpServers.roda!
    expect(server.command).toBe("node")
    expect(onPath(server.command)).toBe(true)
    const args = (server.args as Array<string>).map((arg) => arg.replace("/path/to/roda/", ROOT))
    expect(args).toHaveLength(1)
    expect(existsSync(args[0]!)).toBe(true)
    expect(Object.keys(server.env)).toEqual(["DATA_DIR", "RODA_API_KEY"])

    // Run as written (placeholders and all, the database in memory): the server reads the key and
    // refuses the placeholder, writing nothing to stdout.
    const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, args, {
        env: { PATH: process.env.PATH ?? "", ...server.env, DATA_DIR: "memory" }
      })
      let stdout = ""
      let stderr = ""
      child.stdout.on("data", (chunk) => (stdout += chunk))
      child.stderr.on("data", (chunk) => (stderr += chunk))
      child.on("close", (code) => resolve({ code, stdout, stderr }))
      child.stdin.end()
    })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe("")
    expect(run.stderr).not.toMatch(/are required/)
    expect(run.stderr).toMatch(/roda mcp: (400|401)/)
  })

  it("a remote assistant: an http server at {PUBLIC_BASE_URL}/mcp, where the Node server mounts it", () => {
    const server = snippet("remote").mcpServers.roda!
    expect(server.type).toBe("http")
    const url = new URL(server.url)
    expect(url.protocol).toBe("https:")
    expect(url.pathname).toBe(MCP_PATH)
    expect(README).toContain(`/.well-known/oauth-protected-resource${MCP_PATH}`)
  })
})
