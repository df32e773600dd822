#!/usr/bin/env node
// Writes, for every endpoint of RodaApi, the `.addError(declared(Kind, ...codes))` lines its handler
// can fail with, as the compiler infers them from the handler (packages/core/src/**/Http*.ts).
// The declarations are code like any other: the compiler then checks every handler against them.
// Run it after a change that lets a handler fail in a new way (`node scripts/declare-errors.mjs`),
// then read the diff. `--check` only reports.
import { writeFileSync } from "node:fs"
import path from "node:path"
import ts from "typescript"

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..")
const configPath = path.join(root, "packages/core/tsconfig.src.json")
const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: () => {}
})
const program = ts.createProgram(config.fileNames, config.options)
const checker = program.getTypeChecker()
const check = process.argv.includes("--check")

const kindOrder = [
  "InvalidInput",
  "Unauthenticated",
  "PaymentRequired",
  "Forbidden",
  "NotFound",
  "Conflict",
  "Gone",
  "PayloadTooLarge",
  "UnsupportedMediaType",
  "RateLimited",
  "Unavailable"
]

const rootOfChain = (node) => {
  let current = node
  for (;;) {
    if (ts.isCallExpression(current)) current = current.expression
    else if (ts.isPropertyAccessExpression(current)) current = current.expression
    else return current
  }
}
const literal = (node) =>
  node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined

/** The group name of the call chain `HttpApiGroup.make("g")…` or `apiGroup(Api, "g", …)` enclosing `node`. */
const groupOf = (node) => {
  for (let current = node.parent; current; current = current.parent) {
    if (!ts.isCallExpression(current)) continue
    const callee = current.expression
    if (ts.isIdentifier(callee) && callee.text === "apiGroup") return literal(current.arguments[1])
    if (
      ts.isPropertyAccessExpression(callee) && callee.name.text === "group" &&
      callee.expression.getText() === "HttpApiBuilder"
    ) {
      return literal(current.arguments[1])
    }
    const chainRoot = rootOfChain(current)
    if (ts.isIdentifier(chainRoot) || ts.isPropertyAccessExpression(chainRoot)) continue
  }
  return undefined
}
const apiGroupOf = (node) => {
  for (let current = node; current; current = current.parent) {
    if (!ts.isCallExpression(current)) continue
    let inner = current
    while (ts.isCallExpression(inner) || ts.isPropertyAccessExpression(inner)) {
      if (
        ts.isCallExpression(inner) && ts.isPropertyAccessExpression(inner.expression) &&
        inner.expression.name.text === "make" && inner.expression.expression.getText() === "HttpApiGroup"
      ) {
        return literal(inner.arguments[0])
      }
      inner = inner.expression
    }
  }
  return undefined
}

const effectErrors = (type, at, unknown) => {
  const out = []
  for (const member of type.isUnion() ? type.types : [type]) {
    const variance = member.getProperties().find((p) => String(p.escapedName).startsWith("__@EffectTypeId"))
    if (variance === undefined) {
      unknown.push(`not an Effect: ${checker.typeToString(member)}`)
      continue
    }
    const struct = checker.getTypeOfSymbolAtLocation(variance, at)
    const e = struct.getProperty("_E")
    const error = checker.getTypeOfSymbolAtLocation(e, at).getCallSignatures()[0].getReturnType()
    if (error.flags & ts.TypeFlags.Never) continue
    out.push(...(error.isUnion() ? error.types : [error]))
  }
  return out
}

const literalsOf = (type) =>
  (type.isUnion() ? type.types : [type]).map((t) => (t.isStringLiteral() ? t.value : undefined))

/** `group/endpoint` → Map(kind → Set(code)) */
const declarations = new Map()
/** `group/endpoint` → the folder of its handler (endpoints declared outside their group's chain). */
const handlerFolders = new Map()
const problems = []
for (const file of program.getSourceFiles()) {
  if (file.isDeclarationFile || !file.fileName.startsWith(path.join(root, "packages/core/src"))) continue
  const visit = (node) => {
    if (
      ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) &&
      ["handle", "handleRaw"].includes(node.expression.name.text) && literal(node.arguments[0]) !== undefined &&
      node.arguments[1] !== undefined
    ) {
      const group = groupOf(node)
      const name = literal(node.arguments[0])
      const key = `${group}/${name}`
      const handlerType = checker.getTypeAtLocation(node.arguments[1])
      const signature = handlerType.getCallSignatures()[0]
      const kinds = declarations.get(key) ?? new Map()
      declarations.set(key, kinds)
      handlerFolders.set(key, path.dirname(file.fileName))
      if (signature === undefined) {
        problems.push(`${key}: handler has no call signature`)
      } else {
        const unknown = []
        for (const error of effectErrors(signature.getReturnType(), node, unknown)) {
          const kindSymbol = error.getProperty("kind")
          const codeSymbol = error.getProperty("code")
          const kind = kindSymbol && literalsOf(checker.getTypeOfSymbolAtLocation(kindSymbol, node))[0]
          // OAuth's RFC 6749 refusals are declared by hand (`refusedWith`) and checked by the compiler
          if (kind === "OAuthRefusal") continue
          const codes = codeSymbol ? literalsOf(checker.getTypeOfSymbolAtLocation(codeSymbol, node)) : [undefined]
          if (kind === undefined || codes.includes(undefined)) {
            unknown.push(checker.typeToString(error))
            continue
          }
          const set = kinds.get(kind) ?? new Set()
          for (const code of codes) set.add(code)
          kinds.set(kind, set)
        }
        for (const each of unknown) problems.push(`${key}: ${each} (${path.relative(root, file.fileName)})`)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
}

/**
 * The edits of one endpoint's chain (`HttpApiEndpoint.get(…).setPath(…).addSuccess(…)…`): its
 * `.addError` calls removed, and after its last shape call, what its handler can fail with (`kinds`)
 * and, when `shaped` (the chain itself sets the shape), what the request machinery can answer.
 */
const rewrite = (node, kinds, shaped) => {
  const file = node.getSourceFile()
  const edits = []
  const chain = []
  let current = node
  while (ts.isPropertyAccessExpression(current.parent) && ts.isCallExpression(current.parent.parent)) {
    chain.push(current.parent.parent)
    current = current.parent.parent
  }
  let anchor = node
  const names = new Set()
  for (const call of chain) {
    const name = call.expression.name.text
    names.add(name)
    if (name === "addError") edits.push({ start: call.expression.expression.end, end: call.end, text: "" })
    if (["addSuccess", "setPayload", "setUrlParams", "setPath", "setHeaders"].includes(name)) anchor = call
  }
  const machinery = []
  if (shaped) {
    const method = node.expression.name.text
    if (names.has("setPayload")) machinery.push("BodyRefused")
    else if (names.has("setPath") || names.has("setUrlParams")) machinery.push("ParametersRefused")
    if (method !== "get") machinery.push("WriteRefused")
  }
  const start = chain[0]?.expression.name.getStart() ?? node.getStart()
  const indent = " ".repeat(ts.getLineAndCharacterOfPosition(file, start).character - 1)
  const text = errorLines(kinds, indent) + machinery.map((schema) => `\n${indent}.addError(${schema})`).join("")
  edits.push({ start: anchor.end, end: anchor.end, text, insert: true })
  return { edits }
}

/** The top of the call chain `node` starts: `node.a(…).b(…)` */
const chainTop = (node) => {
  let current = node
  while (ts.isPropertyAccessExpression(current.parent) && ts.isCallExpression(current.parent.parent)) {
    current = current.parent.parent
  }
  return current
}
const isAddArgument = (node) =>
  ts.isCallExpression(node.parent) && ts.isPropertyAccessExpression(node.parent.expression) &&
  node.parent.expression.name.text === "add" && node.parent.arguments.includes(node)

/** `HttpApiEndpoint.get("name", …)`, or `factory("name", …)` whose chain is added to a group. */
const isEndpoint = (node) =>
  ts.isCallExpression(node) && literal(node.arguments[0]) !== undefined &&
  ((ts.isPropertyAccessExpression(node.expression) && node.expression.expression.getText() === "HttpApiEndpoint") ||
    (ts.isIdentifier(node.expression) && /(Api|Endpoints)\.ts$/.test(node.getSourceFile().fileName) &&
      (isAddArgument(chainTop(node)) || ts.isVariableDeclaration(chainTop(node).parent))))

/** The new `.addError` lines of an endpoint, in status order. */
const errorLines = (kinds, indent) =>
  [...kinds.entries()]
    .sort(([a], [b]) => kindOrder.indexOf(a) - kindOrder.indexOf(b))
    .map(([kind, codes]) => {
      const list = [...codes].sort().map((code) => `"${code}"`).join(", ")
      return `\n${indent}.addError(declared(${kind}, ${list}))`
    })
    .join("")

let changedFiles = 0
let endpoints = 0
const seen = new Set()
for (const file of program.getSourceFiles()) {
  if (file.isDeclarationFile || !file.fileName.startsWith(path.join(root, "packages/core/src"))) continue
  // OAuth's own endpoints answer RFC 6749 bodies (`oauth/errors.ts`), declared by hand
  if (/\bOAuthError\b/.test(file.text)) continue
  const edits = []
  const usedKinds = new Set()
  const visit = (node) => {
    if (
      ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === "addError" && ts.isIdentifier(node.arguments[0]) &&
      rootOfChain(node).getText?.() === "HttpApiGroup"
    ) {
      edits.push({ start: node.expression.expression.end, end: node.end, text: "" })
    }
    const direct = ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) &&
      node.expression.expression.getText() === "HttpApiEndpoint"
    if (direct && literal(node.arguments[0]) === undefined) {
      // an endpoint made by a factory (`report(name, …)`): what its shape can answer, written once there
      const { edits: own } = rewrite(node, new Map(), true)
      edits.push(...own)
    } else if (isEndpoint(node)) {
      const name = literal(node.arguments[0])
      let group = apiGroupOf(node)
      if (group === undefined) {
        const candidates = [...declarations.keys()].filter((key) =>
          key.endsWith(`/${name}`) && !seen.has(key) && handlerFolders.get(key) === path.dirname(file.fileName)
        )
        if (candidates.length === 1) group = candidates[0].split("/")[0]
      }
      const key = `${group}/${name}`
      const kinds = declarations.get(key)
      if (kinds === undefined) {
        if (direct) problems.push(`${key}: no handler found (${path.relative(root, file.fileName)})`)
      } else {
        seen.add(key)
        endpoints++
        for (const kind of kinds.keys()) usedKinds.add(kind)
        const { edits: own } = rewrite(node, kinds, direct)
        edits.push(...own)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  if (edits.length === 0) continue
  let text = file.text
  // from the end, so that each edit's offsets still hold; at one offset, removals before the insertion
  for (const edit of edits.sort((a, b) => b.start - a.start || (a.insert ? 1 : -1))) {
    text = text.slice(0, edit.start) + edit.text + text.slice(edit.end)
  }
  // the formatter lays long declarations out over several lines: compare without the layout
  if (text.replace(/\s+/g, "") !== file.text.replace(/\s+/g, "")) {
    changedFiles++
    if (!check) writeFileSync(file.fileName, text)
    console.log(
      `${check ? "would change" : "changed"} ${path.relative(root, file.fileName)} (kinds: ${
        [...usedKinds].join(", ")
      })`
    )
  }
}
// `oauth` and `mcp` are OAuth's own endpoints (skipped above)
const ownErrors = new Set(["oauth", "mcp"])
for (const key of declarations.keys()) {
  if (!seen.has(key) && !ownErrors.has(key.split("/")[0])) problems.push(`${key}: handler without an endpoint`)
}
for (const problem of problems) console.log(`problem: ${problem}`)
console.log(
  `${endpoints} endpoints, ${changedFiles} files ${check ? "to change" : "changed"}, ${problems.length} problems`
)
if (check && (changedFiles > 0 || problems.length > 0)) {
  console.log("The declarations are not what the handlers can fail with: run `node scripts/declare-errors.mjs`.")
  process.exitCode = 1
}
