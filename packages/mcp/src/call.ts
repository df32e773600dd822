import { SqlClient } from "@effect/sql"
import { apiKeyRefusal, AppError, codeOf, CurrentMember, McpAccess, type McpCaller, type McpScope } from "@roda/core"
import { Cause, Data, Effect, Exit, Option } from "effect"
import { decodeArguments, encodeAnswer } from "./arguments"
import { scopeOf, type ToolSpec } from "./tool"
import { tools } from "./tools"

export type Language = "pt" | "en"

/** What `tools/call` answers (MCP `CallToolResult`). */
export interface ToolResult {
  readonly content: Array<{ type: "text"; text: string }>
  readonly structuredContent?: Record<string, unknown>
  readonly isError?: boolean
  readonly [key: string]: unknown
}

export const toolNamed = (name: string) => tools.find((tool) => tool.name === name)

/** The tool needs a scope the connection was not granted (answered 403 `insufficient_scope` over HTTP). */
export const missingScope = (caller: McpCaller, tool: ToolSpec) =>
  caller.scopes.includes(scopeOf(tool)) ? undefined : scopeOf(tool)

const insufficientScopeError = (scope: McpScope, challenge: string) => {
  // the message with its code, as the catalogues' messages carry theirs
  const message = {
    pt: `Esta conexão não tem o escopo "${scope}" que esta ferramenta exige.`,
    en: `This connection lacks the "${scope}" scope this tool needs.`,
    code: "insufficient_scope"
  }
  return new AppError({ status: 403, text: message, headers: { "www-authenticate": challenge } })
}

class Rollback extends Data.TaggedError("Rollback")<{ readonly exit: Exit.Exit<unknown, AppError> }> {}

/** Kept unless it died or failed with a server error: the rule the API applies to each POST. */
const keeps = (exit: Exit.Exit<unknown, AppError>) =>
  Exit.isSuccess(exit) ||
  (!Cause.isInterrupted(exit.cause) && !Cause.isDie(exit.cause) &&
    [...Cause.failures(exit.cause)].every((error) => error.status < 500))

/** A tool that writes runs in one transaction, as its route does (nested ones become savepoints). */
const transactional = <A, R>(effect: Effect.Effect<A, AppError, R>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(
      Effect.flatMap(Effect.exit(effect), (exit) =>
        keeps(exit) ? Effect.succeed(exit) : Effect.fail(new Rollback({ exit })))
    ).pipe(
      Effect.catchTag("Rollback", (rollback) =>
        Effect.succeed(rollback.exit as Exit.Exit<A, AppError>)),
      Effect.catchTag("SqlError", Effect.die),
      Effect.flatten
    ))

const defaultSummary = (tool: ToolSpec, answer: Record<string, unknown>) => {
  const data = answer.data
  if (Array.isArray(data)) {
    const more = (answer.pagination as { nextCursor?: unknown } | undefined)?.nextCursor
    return `${tool.title}: ${data.length} item(s)${more ? "; more with `cursor`" : ""}.`
  }
  return `${tool.title}: done.`
}

const success = (tool: ToolSpec, data: unknown) =>
  Effect.map(encodeAnswer(tool, "", data), (encoded: Record<string, unknown>): ToolResult => {
    const message = tool.summary?.(data) ?? defaultSummary(tool, encoded)
    const answer: Record<string, unknown> = { ...encoded, message }
    return {
      content: [{ type: "text", text: `${message}\n${JSON.stringify(answer.data ?? null)}` }],
      structuredContent: answer
    }
  })

/**
 * An AppError as a tool error: the API's error envelope (`status`, `code`, `message`, field `errors`) in the
 * caller's language, as JSON text. No `structuredContent`: it would have to match the output schema.
 */
export const failure = (error: AppError, language: Language): ToolResult => {
  const errors = error.errors?.map((e) => ({ param: e.param, msg: e.msg[language], location: e.location }))
  const challenge = error.headers?.["www-authenticate"]
  const body = {
    success: false,
    status: error.status,
    code: codeOf(error),
    message: error.text[language],
    ...(errors ? { errors } : {}),
    ...(challenge ? { challenge } : {})
  }
  return { content: [{ type: "text", text: JSON.stringify(body) }], isError: true }
}

const internal = new AppError({
  status: 500,
  text: { pt: "Erro interno do servidor.", en: "Internal server error." }
})

/**
 * Runs one tool as the caller's member: scope, the route's schemas, the route's service call (in a
 * transaction when it writes), the route's answer schema; every call is written to the MCP audit.
 */
export const runTool = (caller: McpCaller, tool: ToolSpec, args: Record<string, unknown>, language: Language) =>
  Effect.gen(function*() {
    const access = yield* McpAccess
    const started = performance.now()
    const scope = missingScope(caller, tool)
    const work = Effect.gen(function*() {
      if (scope !== undefined) {
        return yield* Effect.fail(insufficientScopeError(scope, access.insufficientScope(scope)))
      }
      // an API key: the scope the tool's route needs (as the route itself would ask)
      const keyRefusal = caller.apiKey && apiKeyRefusal(tool.route[0], tool.route[1], caller.apiKey.scopes)
      if (keyRefusal !== undefined && Option.isSome(keyRefusal)) return yield* Effect.fail(keyRefusal.value)
      const decoded = yield* decodeArguments(tool, args)
      const run = tool.run(decoded, caller.member, language).pipe(Effect.provideService(CurrentMember, caller.member))
      return yield* (tool.hints.readOnlyHint ? run : transactional(run))
    })
    const exit = yield* Effect.exit(work)
    const result: ToolResult = Exit.isSuccess(exit)
      ? yield* success(tool, exit.value).pipe(Effect.catchAllCause(() => Effect.succeed(failure(internal, language))))
      : Option.match(Cause.failureOption(exit.cause), {
        onSome: (error) => failure(error, language),
        onNone: () => failure(internal, language)
      })
    if (Exit.isFailure(exit) && Option.isNone(Cause.failureOption(exit.cause))) {
      yield* Effect.logError("MCP tool failed", exit.cause)
    }
    yield* access.recordCall({
      caller,
      tool: tool.name,
      arguments: args,
      outcome: result.isError ? "error" : "ok",
      error: result.isError ? result.content[0]?.text : undefined,
      durationMs: performance.now() - started
    })
    return result
  })
