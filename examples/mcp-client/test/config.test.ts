import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"

const config = JSON.parse(readFileSync(new URL("../claude_desktop_config.json", import.meta.url), "utf8")) as {
  mcpServers: Record<string, { command: string; args: Array<string>; env: Record<string, string> }>
}
// The installed dependency (a link to packages/mcp in the workspace).
const mcpPackage = JSON.parse(
  readFileSync(new URL("../node_modules/@roda/mcp/package.json", import.meta.url), "utf8")
) as { bin: Record<string, string> }
const stdioSource = readFileSync(new URL("../../../packages/mcp/src/local.ts", import.meta.url), "utf8")

describe("examples/mcp-client", () => {
  const roda = config.mcpServers.roda!

  it("starts the binary @roda/mcp installs, over stdio", () => {
    expect(roda.command).toBe("npx")
    const binary = roda.args.at(-1)!
    expect(Object.keys(mcpPackage.bin)).toContain(binary)
    expect(mcpPackage.bin[binary]).toBe("./dist/stdio.js")
  })

  it("gives the environment the stdio server reads", () => {
    for (const name of ["RODA_TOKEN", "RODA_COMMUNITY_ID", "RODA_LANGUAGE"]) {
      expect(stdioSource).toContain(name)
      expect(roda.env[name]).toBeTruthy()
    }
    expect(Object.keys(roda.env)).toContain("DATA_DIR")
  })
})
