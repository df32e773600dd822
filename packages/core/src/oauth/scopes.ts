import type { McpScope } from "./McpAccess"

/** `read`: tools that change nothing; `write`: every tool. Both when a client asks for none. */
export const SCOPES: ReadonlyArray<McpScope> = ["read", "write"]

const isScope = (value: string): value is McpScope => (SCOPES as ReadonlyArray<string>).includes(value)

/** Scopes as stored (space-separated, known ones only, in a fixed order). */
export const parseScopes = (text: string): ReadonlyArray<McpScope> => {
  const asked = new Set(text.split(" "))
  return SCOPES.filter((scope) => asked.has(scope))
}

/** A requested `scope` parameter: the scopes, or undefined when it names an unknown scope. */
export const requestedScopes = (scope: string | undefined): ReadonlyArray<McpScope> | undefined => {
  const names = (scope ?? "").split(" ").filter((name) => name !== "")
  if (names.length === 0) return SCOPES
  if (!names.every(isScope)) return undefined
  return parseScopes(names.join(" "))
}

export const scopeText = (scopes: ReadonlyArray<McpScope>) => scopes.join(" ")
