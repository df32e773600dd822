import { OpenApi } from "@effect/platform"
import { RodaApi } from "@roda/core/api"
import openapiTS, { astToString } from "openapi-typescript"

/** Where the generated types live, from the package's folder. */
export const GENERATED_FILE = "generated/openapi.ts"
export const GENERATE_COMMAND = "pnpm --filter @roda/client generate"

const banner = `/**
 * The types of Roda's OpenAPI document (the one \`/api/openapi.json\` serves), made by openapi-typescript.
 * \`X-CommunityId\` is optional in them: the client sends it (its \`communityId\` option).
 * Generated: do not edit. Run \`${GENERATE_COMMAND}\` after changing the contract.
 */
`

type Operation = { parameters?: Array<{ name: string; in: string; required?: boolean }> }

/**
 * The client sends `X-CommunityId` on every call itself (its `communityId` option), so a call need
 * not repeat it: the one change to the document before its types are made.
 */
const communityHeaderOptional = (document: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const copy = structuredClone(document)
  for (const operations of Object.values(copy.paths) as Array<Record<string, Operation>>) {
    for (const operation of Object.values(operations)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in === "header" && parameter.name === "X-CommunityId") parameter.required = false
      }
    }
  }
  return copy
}

/** The document as the server serves it, turned into the types the fetch client is typed with. */
export const generateOpenApiTypes = async (): Promise<string> => {
  const document = communityHeaderOptional(OpenApi.fromApi(RodaApi))
  const ast = await openapiTS(document as never, { exportType: false, alphabetize: false })
  return banner + astToString(ast)
}
