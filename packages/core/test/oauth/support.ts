import { Effect, Exit } from "effect"
import { McpAccess, type Roda } from "../../src/index"
import type { Client } from "../support/harness"
import { form, pkce, REDIRECT_URI } from "../support/oauth"

/** Runs `McpAccess.authenticate` on that Roda: the caller, or the failure's tag. */
export const authenticate = async (roda: Roda, token: string) => {
  const exit = await roda.runtime.runPromise(Effect.exit(Effect.flatMap(McpAccess, (mcp) => mcp.authenticate(token))))
  return Exit.isSuccess(exit) ? exit.value : { failed: true as const }
}

export const registerClient = async (api: Client, redirectUris: ReadonlyArray<string> = [REDIRECT_URI]) => {
  const reply = await api.post("/oauth/register", { redirect_uris: redirectUris, client_name: "Assistente" })
  if (reply.status !== 201) throw new Error(`register: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body.client_id as string
}

/** `/oauth/authorize` with valid parameters unless overridden (undefined removes one). */
export const authorize = (api: Client, params: Record<string, string | undefined>) => {
  const query = new URLSearchParams(
    Object.entries({
      response_type: "code",
      redirect_uri: REDIRECT_URI,
      code_challenge_method: "S256",
      state: "xyz",
      ...params
    }).filter((entry): entry is [string, string] => entry[1] !== undefined)
  )
  return api.get(`/oauth/authorize?${query}`)
}

/** A pending authorization request: its id and the PKCE verifier. */
export const startAuthorization = async (api: Client, clientId: string, scope?: string) => {
  const { challenge, verifier } = pkce()
  const reply = await authorize(api, { client_id: clientId, code_challenge: challenge, scope })
  if (reply.status !== 302) throw new Error(`authorize: ${reply.status} ${JSON.stringify(reply.body)}`)
  const requestId = new URL(reply.headers.get("location")!).searchParams.get("request_id")!
  return { requestId, verifier }
}

/** A consented request: the code and verifier. */
export const codeFor = async (api: Client, clientId: string, user: { token: string }, communityId: string) => {
  const { requestId, verifier } = await startAuthorization(api, clientId)
  const consent = await api.post("/api/oauth/authorize/consent", { requestId, communityId }, { token: user.token })
  if (consent.status !== 200) throw new Error(`consent: ${consent.status} ${JSON.stringify(consent.body)}`)
  return { code: new URL(consent.body.data.redirectTo).searchParams.get("code")!, verifier, requestId }
}

export const token = (api: Client, fields: Record<string, string | undefined>) =>
  api.call("POST", "/oauth/token", form(fields))

export const exchange = (api: Client, clientId: string, code: string, verifier: string) =>
  token(api, {
    grant_type: "authorization_code",
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT_URI,
    client_id: clientId
  })
