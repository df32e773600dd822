import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { DeferredMemberScope, DeferredPublicScope, MemberScope, PublicScope } from "../http/Security"

type Spec = { paths: Record<string, Record<string, { operationId?: string; parameters?: Array<unknown> }>> }

const communityHeader = (required: boolean) => ({
  name: "X-CommunityId",
  in: "header",
  required,
  description: "The community of the call (a UUID).",
  schema: { type: "string", format: "uuid" }
})

const profileHeader = {
  name: "X-ProfileId",
  in: "header",
  required: false,
  description:
    "Act as this profile of the community (owner, admin and moderator only; only an owner acts as an owner).",
  schema: { type: "string", format: "uuid" }
}

const idempotencyHeader = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "1 to 255 visible ASCII characters (e.g. a UUID): a retry of the same request within 24 hours replays the first 2xx answer (`Idempotent-Replayed: true`); the same key with another request answers 409.",
  schema: { type: "string", minLength: 1, maxLength: 255 }
}

/**
 * The community headers are read by middleware, not by endpoint schemas, so the generated document
 * would not show them: this adds them to every operation whose endpoint runs a community scope.
 */
export const addScopeHeaders = (api: HttpApi.HttpApi.Any, spec: Spec): Spec => {
  const scoped = new Set<string>()
  const groups = Object.values((api as HttpApi.HttpApi.AnyWithProps).groups) as Array<
    HttpApiGroup.HttpApiGroup.AnyWithProps
  >
  for (const group of groups) {
    for (const endpoint of Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
      const middlewares = new Set<unknown>([...group.middlewares, ...endpoint.middlewares])
      const scopes = [MemberScope, DeferredMemberScope, PublicScope, DeferredPublicScope]
      if (scopes.some((scope) => middlewares.has(scope))) {
        scoped.add(`${group.identifier}.${endpoint.name}`)
      }
    }
  }
  for (const [path, operations] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (operation.operationId && scoped.has(operation.operationId)) {
        operation.parameters = [...(operation.parameters ?? []), communityHeader(true), profileHeader]
      }
      // Every POST takes Idempotency-Key (checkout declares its own; sign-in creates nothing).
      if (method === "post" && !path.startsWith("/api/checkout") && path !== "/api/auth/login") {
        const declared = (operation.parameters ?? []).some((p) =>
          (p as { name?: string }).name?.toLowerCase() === "idempotency-key"
        )
        if (!declared) operation.parameters = [...(operation.parameters ?? []), idempotencyHeader]
      }
    }
  }
  return spec
}
