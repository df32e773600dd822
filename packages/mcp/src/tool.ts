import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import type { AppError, McpScope, Member, RodaApi, servicesLayer } from "@roda/core"
import type { Effect, Layer, Schema } from "effect"
import type { Language } from "./call"

/** What the tools may use: the services of `makeRoda` (its `runtime`). */
export type RodaServices = Layer.Layer.Success<ReturnType<typeof servicesLayer>>

type ApiGroups = typeof RodaApi extends HttpApi.HttpApi<any, infer G, any, any> ? G : never
export type GroupName = ApiGroups["identifier"]
// `infer` the error too: it is invariant, and a group that declares none has `never`, which `any` does not match
type EndpointsOf<G> = G extends HttpApiGroup.HttpApiGroup<any, infer E, infer _Error, any, any> ? E : never
type EndpointsIn<GN extends GroupName> = EndpointsOf<HttpApiGroup.HttpApiGroup.WithName<ApiGroups, GN>>
export type EndpointName<GN extends GroupName> = EndpointsIn<GN>["name"]
type Endpoint<GN extends GroupName, EN extends string> = HttpApiEndpoint.HttpApiEndpoint.WithName<EndpointsIn<GN>, EN>

/** The decoded arguments of a tool: the same `path`, `urlParams` and `payload` its HTTP route's handler gets. */
export type ArgsOf<GN extends GroupName, EN extends string> = Omit<
  HttpApiEndpoint.HttpApiEndpoint.Request<Endpoint<GN, EN>>,
  "headers" | "request"
>

export interface Hints {
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
}

/** Changes nothing. */
export const reads: Hints = { readOnlyHint: true, destructiveHint: false, idempotentHint: true }
/** Adds or changes something; a repeat adds again. */
export const adds: Hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: false }
/** Sets a state; a repeat changes nothing more. */
export const sets: Hints = { readOnlyHint: false, destructiveHint: false, idempotentHint: true }
/** Takes something away (access, a subscription); a repeat changes nothing more. */
export const ends: Hints = { readOnlyHint: false, destructiveHint: true, idempotentHint: true }

/**
 * One MCP tool. Its input is the route's path, query and body fields side by side, checked by the
 * route's own schemas; its output is the route's answer (`success`, `message`, `data`, `pagination`).
 */
export interface ToolSpec<Args = any> {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly hints: Hints
  /** The route whose request schemas (input) and answer schema (output) the tool shares. */
  readonly route: readonly [group: string, endpoint: string]
  /** Fields of the route's input the tool fixes (left out of its input schema). */
  readonly fixed?: Readonly<Record<string, unknown>> | undefined
  /** Fields of the route's input the tool does not offer (left out of its input schema). */
  readonly omit?: ReadonlyArray<string> | undefined
  /** Route fields offered under another name (when the path and the body both have one, as `type`). */
  readonly rename?: Partial<Record<"path" | "urlParams" | "payload", Readonly<Record<string, string>>>> | undefined
  /** An answer schema of its own (the overview's, which puts several routes' answers together). */
  readonly output?: Schema.Schema.Any | undefined
  /** The same service call the route's handler makes, as the connection's member (in the caller's language). */
  readonly run: (args: Args, member: Member, language: Language) => Effect.Effect<any, AppError, RodaServices>
  /** A short line for people (the text content); the default names the tool and counts items. */
  readonly summary?: ((data: any) => string) | undefined
}

export const scopeOf = (tool: ToolSpec): McpScope => tool.hints.readOnlyHint ? "read" : "write"

/** A tool over a route of `RodaApi`, with its arguments typed as that route's handler receives them. */
export const routeTool = <GN extends GroupName, EN extends EndpointName<GN>>(
  group: GN,
  endpoint: EN,
  spec: Omit<ToolSpec<ArgsOf<GN, EN>>, "route">
): ToolSpec => ({ ...spec, route: [group, endpoint] })
