import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Context } from "effect"
import type { RateLimitName } from "../platform/rateLimitSettings"

/** The limit on abuse an endpoint counts (`platform/RateLimits.ts`): its answers carry the rate-limit headers. */
export class RateLimitPolicy extends Context.Tag("@roda/core/api/RateLimitPolicy")<RateLimitPolicy, RateLimitName>() {}

type Response = { headers?: Record<string, unknown> }
type Spec = { paths: Record<string, Record<string, { operationId?: string; responses?: Record<string, Response> }>> }

const policyHeader = (name: string) => ({
  description:
    `The limit this operation counts (IETF httpapi rate-limit headers): \`"${name}";q=<limit>;w=<window seconds>\`. Absent when the limit is turned off.`,
  schema: { type: "string", example: `"${name}";q=10;w=3600` }
})

const stateHeader = (name: string) => ({
  description:
    `What is left of the limit: \`"${name}";r=<remaining>;t=<seconds until the window ends>\`. Absent when the limit is turned off.`,
  schema: { type: "string", example: `"${name}";r=9;t=3599` }
})

const retryAfterHeader = {
  description: "Seconds until the window ends and the limit allows the action again.",
  schema: { type: "integer", minimum: 1 }
}

/** Declares `RateLimit-Policy` and `RateLimit` on every answer of the limited operations, and `Retry-After` on their 429. */
export const addRateLimitHeaders = (api: HttpApi.HttpApi.Any, spec: Spec): Spec => {
  const limited = new Map<string, RateLimitName>()
  const groups = Object.values((api as HttpApi.HttpApi.AnyWithProps).groups) as Array<
    HttpApiGroup.HttpApiGroup.AnyWithProps
  >
  for (const group of groups) {
    for (const endpoint of Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
      const policy = Context.getOption(endpoint.annotations, RateLimitPolicy)
      if (policy._tag === "Some") limited.set(`${group.identifier}.${endpoint.name}`, policy.value)
    }
  }
  for (const operations of Object.values(spec.paths)) {
    for (const operation of Object.values(operations)) {
      const name = operation.operationId === undefined ? undefined : limited.get(operation.operationId)
      if (name === undefined) continue
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        response.headers = {
          ...response.headers,
          "RateLimit-Policy": policyHeader(name),
          RateLimit: stateHeader(name),
          ...(status === "429" ? { "Retry-After": retryAfterHeader } : {})
        }
      }
    }
  }
  return spec
}
