import { describe, expect, it } from "vitest"
import { runBinary, SPAWNS } from "./support"

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g")

const help = async (...args: ReadonlyArray<string>) => {
  const run = await runBinary(args, { PATH: process.env.PATH ?? "" })
  expect(run.code).toBe(0)
  return run.stdout.replace(ANSI, "")
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
