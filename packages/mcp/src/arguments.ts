import { AppError, Messages } from "@roda/core"
import { Effect, Either, ParseResult, Schema } from "effect"
import { answerSchemaOf, partsOf } from "./schemas"
import type { ToolSpec } from "./tool"

interface Issue {
  readonly _tag: string
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const issueText = (issue: Issue, param: string) => {
  if (issue._tag === "Missing") return `${param} is required`
  if (issue._tag === "Unexpected") return `${param} is not allowed`
  return issue.message.length > 200 ? `${issue.message.slice(0, 200)}…` : issue.message
}

/** One issue per parameter, the noise of optional and nullable unions left out (as the API does). */
const useful = (issues: ReadonlyArray<Issue>) => {
  const within = (inner: Issue, outer: Issue) =>
    inner.path.length >= outer.path.length && outer.path.every((key, i) => key === inner.path[i])
  const kept = issues.filter((issue) =>
    !(/^Expected (undefined|null), actual/.test(issue.message) &&
      issues.some((other) => other !== issue && within(other, issue)))
  )
  return kept.filter((issue, index) =>
    kept.findIndex((other) => within(other, issue) && within(issue, other)) === index
  )
}

const invalid = (issues: ReadonlyArray<{ readonly issue: Issue; readonly location: string }>) => {
  const errors = issues.map(({ issue, location }) => {
    const param = issue.path.map(String).join(".") || "arguments"
    const text = issueText(issue, param)
    return { param, msg: { pt: text, en: text }, location: location as "body" }
  })
  const first = errors[0]?.msg ?? { pt: "Requisição inválida.", en: "Invalid request." }
  return new AppError({ status: 400, text: first, errors })
}

/**
 * Text PostgreSQL cannot keep (a NUL character, an unpaired surrogate) anywhere in the arguments: the
 * API's request gate refuses it in any body (400) before a route runs; here it would reach the query.
 */
const unstorable = (value: unknown, path: ReadonlyArray<string>, depth = 0): AppError | undefined => {
  if (typeof value === "string") {
    const problem = value.includes("\u0000")
      ? { text: Messages.nulCharacter, msg: "must not contain NUL characters" }
      : !value.isWellFormed()
      ? { text: Messages.loneSurrogate, msg: "must not contain unpaired UTF-16 surrogates" }
      : undefined
    if (problem === undefined) return undefined
    const param = path.join(".") || "arguments"
    return new AppError({
      status: 400,
      text: problem.text,
      errors: [{ param, msg: { pt: problem.msg, en: problem.msg }, location: "body" }]
    })
  }
  if (typeof value !== "object" || value === null || depth > 32) return undefined
  for (const [key, item] of Object.entries(value)) {
    const found = unstorable(key, path, depth + 1) ?? unstorable(item, [...path, key], depth + 1)
    if (found !== undefined) return found
  }
  return undefined
}

/** Query values travel as strings: a number or boolean given by the assistant is read as the API would read it. */
const asQueryValue = (value: unknown) => typeof value === "number" || typeof value === "boolean" ? String(value) : value

/**
 * Decodes the tool's arguments with the route's own schemas into the `path`, `urlParams` and
 * `payload` its handler gets; fields the tool fixes are added, unknown fields refused (400).
 */
export const decodeArguments = (tool: ToolSpec, args: Record<string, unknown>) =>
  Effect.suspend(() => {
    const refused = unstorable(args, [])
    if (refused !== undefined) return Effect.fail(refused)
    const parts = partsOf(tool)
    const known = new Set(parts.flatMap((part) => part.fields.filter((f) => f.offered).map((f) => f.arg)))
    const issues: Array<{ issue: Issue; location: string }> = Object.keys(args)
      .filter((name) => !known.has(name))
      .map((name) => ({ issue: { _tag: "Unexpected", path: [name], message: "" }, location: "body" }))
    const decoded: Record<string, unknown> = {}
    for (const { fields, location, part, schema } of parts) {
      const input: Record<string, unknown> = {}
      const argOf: Record<string, string> = {}
      for (const { arg, field, offered } of fields) {
        argOf[field] = arg
        const value = tool.fixed?.[field] ?? (offered ? args[arg] : undefined)
        if (value !== undefined) input[field] = part === "urlParams" ? asQueryValue(value) : value
      }
      const result = Schema.decodeUnknownEither(schema as Schema.Schema<unknown, unknown, never>)(input, {
        errors: "all",
        onExcessProperty: "error"
      })
      if (Either.isRight(result)) decoded[part] = result.right
      else {
        for (const issue of useful(ParseResult.ArrayFormatter.formatErrorSync(result.left))) {
          // Issues name the tool's argument (a renamed field by its new name).
          const [head, ...rest] = issue.path
          const path = head === undefined ? [] : [argOf[String(head)] ?? head, ...rest]
          issues.push({ issue: { ...issue, path }, location })
        }
      }
    }
    return issues.length > 0 ? Effect.fail(invalid(issues)) : Effect.succeed(decoded)
  })

/** The route's answer for `result`, encoded by the route's own success schema (the JSON the API answers). */
export const encodeAnswer = (tool: ToolSpec, message: string, result: unknown) => {
  const isPage = typeof result === "object" && result !== null && "items" in result && "pagination" in result
  const body = isPage
    ? (() => {
      const { items, pagination, ...rest } = result as { items: unknown; pagination: unknown }
      return { success: true, message, data: items, pagination, ...rest }
    })()
    : { success: true, message, data: result }
  const schema = answerSchemaOf(tool)
  return Schema.encodeUnknown(schema as Schema.Schema<unknown, Record<string, unknown>, never>)(body).pipe(Effect.orDie)
}
