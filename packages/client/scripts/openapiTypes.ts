import { OpenApi } from "@effect/platform"
import { RodaApi } from "@roda/core/api"
import openapiTS, { astToString } from "openapi-typescript"

/** Where the generated types live, from the package's folder. */
export const GENERATED_FILE = "src/openapi.ts"
export const GENERATE_COMMAND = "pnpm --filter @roda/client generate"

const banner = `/**
 * The types of Roda's OpenAPI document (the one \`/api/openapi.json\` serves), made by openapi-typescript.
 * Generated: do not edit. Run \`${GENERATE_COMMAND}\` after changing the contract.
 */
`

/** The document as the server serves it, turned into the types the fetch client is typed with. */
export const generateOpenApiTypes = async (): Promise<string> => {
  const document = OpenApi.fromApi(RodaApi)
  const ast = await openapiTS(document as never, { exportType: false, alphabetize: false })
  return banner + astToString(ast)
}
