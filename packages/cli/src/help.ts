import { CliConfig, CommandDescriptor, HelpDoc, Usage } from "@effect/cli"
import * as Span from "@effect/cli/HelpDoc/Span"
import { Option } from "effect"
import { HELP_WIDTH, helpLines, indent, joinBlocks, spanLines } from "./helpRender"

/**
 * Help for nested commands. @effect/cli 0.77 prints the usage of a subcommand without the commands
 * above it (`$ reviews` for `roda admin reviews --help`), and in the listing of a command two levels
 * up it repeats the middle one (`admin admin reviews list`: a child's prefix is the parent's usage,
 * which already holds the prefix). Both are inside the library; this renders the same page with the
 * full path (`$ roda admin reviews <command>`) and the listing relative to the command asked about.
 */

/** @effect/cli's descriptor tree (`Standard`/`GetUserInput` leaves, `Map`, `Subcommands`). */
type Node =
  | { readonly _tag: "Standard" | "GetUserInput"; readonly name: string; readonly description: HelpDoc.HelpDoc }
  | { readonly _tag: "Map"; readonly command: Node }
  | { readonly _tag: "Subcommands"; readonly parent: Node; readonly children: ReadonlyArray<Node> }

interface Entry {
  readonly name: string
  /** The command itself (without its subcommands): its usage, description and options. */
  readonly own: CommandDescriptor.Command<unknown>
  readonly description: HelpDoc.HelpDoc
  readonly children: ReadonlyArray<Entry>
}

const entryOf = (node: Node): Entry => {
  switch (node._tag) {
    case "Map":
      return entryOf(node.command)
    case "Subcommands":
      return { ...entryOf(node.parent), children: node.children.map(entryOf) }
    default:
      return {
        name: node.name,
        own: node as unknown as CommandDescriptor.Command<unknown>,
        description: node.description,
        children: []
      }
  }
}

const HELP = new Set(["--help", "-h"])

/**
 * The command `args` ask help for, with the names leading to it: with `--help`/`-h`, or a command
 * that has subcommands named without one (`roda admin`), which the library answers with its help.
 */
const target = (root: Entry, args: ReadonlyArray<string>): Option.Option<ReadonlyArray<Entry>> => {
  const path = [root]
  let rest = 0
  let asked = false
  for (const arg of args) {
    if (arg === "--") break
    if (HELP.has(arg)) asked = true
    const child = path.at(-1)!.children.find((entry) => entry.name === arg)
    if (child !== undefined && rest === 0) path.push(child)
    else if (!HELP.has(arg)) rest++
  }
  const bare = rest === 0 && path.at(-1)!.children.length > 0
  return asked || bare ? Option.some(path) : Option.none()
}

const usageOf = (entry: Entry, config: CliConfig.CliConfig) =>
  Usage.enumerate(CommandDescriptor.getUsage(entry.own), config)[0] ?? Span.text(entry.name)

/** Every command below `entry`, its usage relative to `entry` (`reviews list --as text …`). */
const listing = (
  entry: Entry,
  config: CliConfig.CliConfig,
  prefix: string
): ReadonlyArray<readonly [Span.Span, Span.Span]> =>
  entry.children.flatMap((child) => {
    const usage = Span.concat(Span.text(prefix), usageOf(child, config))
    return [
      [usage, HelpDoc.getSpan(child.description)] as const,
      ...listing(child, config, `${prefix}${child.name} `)
    ]
  })

/**
 * Each command's usage, its description below it: usages run up to ~100 columns, which leaves no
 * room for a second column.
 */
const commandsSection = (entry: Entry, config: CliConfig.CliConfig, colour: boolean) => {
  const items = listing(entry, config, "").map(([usage, description]) =>
    indent([
      ...spanLines(usage, HELP_WIDTH - 4, colour),
      ...indent(spanLines(description, HELP_WIDTH - 6, colour), "  ")
    ], "  - ")
  )
  return items.length === 0 ? [] : [spanLines(Span.text("COMMANDS"), HELP_WIDTH, colour, true), joinBlocks(items)]
}

/** The help page of the command at the end of `path`, as @effect/cli lays it out. */
const page = (
  path: ReadonlyArray<Entry>,
  app: { readonly name: string; readonly version: string },
  colour: boolean
) => {
  const config = CliConfig.defaultConfig
  const entry = path.at(-1)!
  const above = path.slice(0, -1).map((each) => `${each.name} `).join("")
  const usage = Span.spans([
    Span.text(`$ ${above}`),
    usageOf(entry, config),
    entry.children.length > 0 ? Span.text(" <command>") : Span.empty
  ])
  const described = [
    HelpDoc.h1(Span.code(app.name)),
    HelpDoc.p(`${app.name} ${app.version}`),
    HelpDoc.h1("USAGE"),
    HelpDoc.p(usage),
    CommandDescriptor.getHelp(entry.own, config)
  ].reduce((doc, next) => HelpDoc.sequence(doc, next))
  return joinBlocks([helpLines(described, HELP_WIDTH, colour), ...commandsSection(entry, config, colour)]).join("\n")
}

/**
 * The help `args` (the arguments after `roda`) ask for, as text to print: wrapped at 100 columns,
 * with ANSI colours only when `colour`; none when they ask for something else.
 */
export const helpText = (
  command: { readonly descriptor: unknown },
  args: ReadonlyArray<string>,
  app: { readonly name: string; readonly version: string },
  colour: boolean
): Option.Option<string> =>
  target(entryOf(command.descriptor as Node), args).pipe(Option.map((path) => page(path, app, colour)))
