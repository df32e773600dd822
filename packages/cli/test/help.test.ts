import { execFile, execFileSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { skipWhen } from "../../../testing/skips"
import { BIN, runBinary, SPAWNS } from "./support"

const ESCAPE = String.fromCharCode(27)

/** The help page, written to a pipe: plain text (no ANSI escapes), no line over 100 columns. */
const help = async (...args: ReadonlyArray<string>) => {
  const run = await runBinary(args, { PATH: process.env.PATH ?? "" })
  expect(run.code).toBe(0)
  expect(run.stdout).not.toContain(ESCAPE)
  expect(run.stdout.split("\n").filter((line) => line.length > 100)).toEqual([])
  return run.stdout
}

const usageLine = (text: string) => {
  const lines = text.split("\n")
  return lines[lines.indexOf("USAGE") + 2]
}

/** The lines of the COMMANDS section, without the bullet and the description. */
const commands = (text: string) =>
  text.slice(text.indexOf("COMMANDS")).split("\n").filter((line) => line.startsWith("  - "))
    .map((line) => line.slice(4).split(/\s{2,}/)[0])

describe("help of nested commands", SPAWNS, () => {
  it("names the whole path in the usage line", async () => {
    expect(usageLine(await help("admin", "--help"))).toBe("$ roda admin <command>")
    expect(usageLine(await help("admin", "reviews", "--help"))).toBe("$ roda admin reviews <command>")
    expect(usageLine(await help("admin", "reviews", "-h"))).toBe("$ roda admin reviews <command>")
    expect(usageLine(await help("admin", "reviews", "list", "--help")))
      .toBe("$ roda admin reviews list --as text [--json] [--limit integer]")
    expect(usageLine(await help("admin"))).toBe("$ roda admin <command>")
  })

  it("lists the commands below, each named once, relative to the command asked about", async () => {
    const root = commands(await help("--help"))
    expect(root).toContain("admin reviews")
    expect(root).toContain("admin reviews list --as text [--json] [--limit integer]")
    expect(root.filter((line) => /\b(\w+) \1\b/.test(line!))).toEqual([])

    const admin = await help("admin", "--help")
    expect(admin).toContain("Platform operators: reviews of business information")
    expect(commands(admin)).toContain("reviews list --as text [--json] [--limit integer]")
    expect(commands(admin)).toContain("fees show --as text [--json] <communityId>")
    expect(commands(admin).filter((line) => line!.startsWith("admin"))).toEqual([])

    const reviews = await help("admin", "reviews", "--help")
    expect(commands(reviews)).toEqual([
      "list --as text [--json] [--limit integer]",
      "show --as text [--json] <communityId>",
      "approve --as text [--json] <subject> business | payout <communityId>",
      "reject --as text [--json] --reason text <subject> business | payout <communityId>"
    ])
  })

  it("shows a command's options and description, as the library does", async () => {
    const list = await help("admin", "reviews", "list", "--help")
    expect(list).toContain("List what waits for review")
    expect(list).toContain("--limit integer")
    expect(list).not.toContain("COMMANDS")
  })
})

describe("help on a pipe and on a terminal", SPAWNS, () => {
  it("wraps at 100 columns, continuing a long usage or description under its first line", async () => {
    const root = (await help("--help")).split("\n")
    const audit = root.findIndex((line) => line.startsWith("  - admin audit --as text"))
    expect(audit).toBeGreaterThan(0)
    expect(root[audit + 1]).toMatch(/^ {4}\S/)
    const mcp = root.findIndex((line) => line === "  - mcp")
    expect(root[mcp + 1]).toMatch(/^ {6}Serve the MCP tools over stdio/)
    expect(root[mcp + 2]).toMatch(/^ {6}\S/)
    // a bracketed option is never cut in two
    expect(root.filter((line) => /\[--limit$/.test(line))).toEqual([])
    for (const page of [["admin", "--help"], ["certificates", "issue", "--help"], ["payouts", "list", "-h"]]) {
      await help(...page)
    }
  })

  const hasScript = (() => {
    try {
      execFileSync("script", ["--version"], { stdio: "ignore" })
      return true
    } catch {
      return false
    }
  })()

  /** The help page as a terminal gets it (`script` gives the binary a pseudo-terminal). */
  const onTerminal = (env: Record<string, string>) =>
    new Promise<string>((resolve, reject) =>
      execFile(
        "script",
        ["-qec", `${process.execPath} ${BIN} admin --help`, "/dev/null"],
        { env: { PATH: process.env.PATH ?? "", TERM: "xterm", ...env } },
        (error, stdout) => error ? reject(error) : resolve(stdout)
      )
    )

  skipWhen(hasScript ? undefined : "no script(1) to give the binary a terminal (util-linux)").it(
    "colours a terminal, unless NO_COLOR is set to something",
    async () => {
      expect(await onTerminal({})).toContain(`${ESCAPE}[`)
      expect(await onTerminal({ NO_COLOR: "" })).toContain(`${ESCAPE}[`)
      const plain = await onTerminal({ NO_COLOR: "1" })
      expect(plain).toContain("reviews list --as text")
      expect(plain).not.toContain(ESCAPE)
    }
  )
})
