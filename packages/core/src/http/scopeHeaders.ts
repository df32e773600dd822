import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { MemberScope, PublicScope } from "./middleware/tags"

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
      if (middlewares.has(MemberScope) || middlewares.has(PublicScope)) {
        scoped.add(`${group.identifier}.${endpoint.name}`)
      }
    }
  }
  for (const operations of Object.values(spec.paths)) {
    for (const operation of Object.values(operations)) {
      if (operation.operationId && scoped.has(operation.operationId)) {
        operation.parameters = [...(operation.parameters ?? []), communityHeader(true), profileHeader]
      }
    }
  }
  return spec
}
