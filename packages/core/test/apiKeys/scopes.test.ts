import type { HttpApi, HttpApiEndpoint } from "@effect/platform"
import { expect, it } from "vitest"
import { RodaApi } from "../../src/api/RodaApi"
import { API_KEY_SCOPES, AREA_OF_GROUP, scopeFor } from "../../src/apiKeys/scopes"

const groups = Object.values((RodaApi as unknown as HttpApi.HttpApi.AnyWithProps).groups)

it("gives every group of the API a decision for API keys, and names no group that is gone", () => {
  const names = groups.map((group) => group.identifier).sort()
  expect(Object.keys(AREA_OF_GROUP).sort()).toEqual(names)
})

it("needs a scope of the list for each operation keys may call; money and the operator's routes stay out", () => {
  const needed = new Set<string>()
  for (const group of groups) {
    for (const endpoint of Object.values(group.endpoints) as Array<HttpApiEndpoint.HttpApiEndpoint.AnyWithProps>) {
      const scope = scopeFor(group.identifier, endpoint.name, endpoint.method)
      if (scope !== undefined) needed.add(scope)
      if (endpoint.path.includes("/admin/")) expect(scope, endpoint.path).toBeUndefined()
      if (group.identifier === "payouts" && endpoint.method !== "GET") expect(scope).toBeUndefined()
    }
  }
  for (const scope of needed) expect(API_KEY_SCOPES).toContain(scope)
  expect(scopeFor("reports", "sales", "GET")).toBe("money:read")
  expect(scopeFor("reports", "members", "GET")).toBe("community:read")
  expect(scopeFor("courses", "create", "POST")).toBe("learning:write")
  expect(scopeFor("identity", "me", "GET")).toBeUndefined()
})
