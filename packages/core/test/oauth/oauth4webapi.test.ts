import { createServer, type Server } from "node:http"
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newCommunity } from "../support/community"
import { authorizeAs, type ServedRoda, serveRoda } from "../support/oauth"
import { authenticate } from "./support"

/**
 * An independent, strict OAuth client (oauth4webapi) against the real server over HTTP: discovery of
 * both metadata documents, dynamic registration, PKCE, the code exchange with `resource`, refresh and
 * revocation. Consent goes through the API routes the consent page calls.
 */
describe("oauth4webapi against Roda", () => {
  let served: ServedRoda
  const insecure = { [oauth.allowInsecureRequests]: true }
  beforeAll(async () => {
    served = await serveRoda()
  })
  afterAll(() => served.close())

  /** The consent page's part: follow /oauth/authorize to the consent screen, Allow for the community. */
  const consentFor = async (authorizationUrl: URL, user: { token: string }, communityId: string) => {
    const started = await fetch(authorizationUrl, { redirect: "manual" })
    expect(started.status).toBe(302)
    const consentUrl = new URL(started.headers.get("location")!)
    expect(consentUrl.origin + consentUrl.pathname).toBe(`${served.base}/oauth/consent`)
    const page = await fetch(consentUrl)
    expect(page.headers.get("content-type")).toContain("text/html")
    const requestId = consentUrl.searchParams.get("request_id")
    const consent = await served.api.post("/api/oauth/authorize/consent", { requestId, communityId }, {
      token: user.token
    })
    expect(consent.status).toBe(200)
    return new URL(consent.body.data.redirectTo)
  }

  it("discovers, registers, authorizes with PKCE and resource, refreshes and revokes", async () => {
    const { community, owner } = await newCommunity(served.api, "oauth4webapi")
    const resource = new URL(`${served.base}/mcp`)
    const resourceServer = await oauth.processResourceDiscoveryResponse(
      resource,
      await oauth.resourceDiscoveryRequest(resource, insecure)
    )
    expect(resourceServer.authorization_servers).toEqual([served.base])
    const issuer = new URL(resourceServer.authorization_servers![0]!)
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" })
    )
    expect(as.code_challenge_methods_supported).toEqual(["S256"])

    const redirectUri = "http://127.0.0.1:8976/callback"
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, {
        redirect_uris: [redirectUri],
        client_name: "oauth4webapi",
        token_endpoint_auth_method: "none"
      }, insecure)
    )
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: "none" }

    const verifier = oauth.generateRandomCodeVerifier()
    const state = oauth.generateRandomState()
    const authorizationUrl = new URL(as.authorization_endpoint!)
    authorizationUrl.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      scope: "read write",
      state,
      resource: resource.href
    }).toString()
    const callback = await consentFor(authorizationUrl, owner, community.id)
    // checks state and RFC 9207 `iss` (the server announces authorization_response_iss_parameter_supported)
    const params = oauth.validateAuthResponse(as, client, callback, state)

    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, {
        ...insecure,
        additionalParameters: { resource: resource.href }
      })
    )
    expect(tokens.token_type).toBe("bearer")
    expect(tokens.expires_in).toBe(3600)
    expect(tokens.scope).toBe("read write")
    expect(await authenticate(served.roda, tokens.access_token)).toMatchObject({
      member: { communityId: community.id, role: "owner" }
    })

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, {
        ...insecure,
        additionalParameters: { resource: resource.href }
      })
    )
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token)
    expect(await authenticate(served.roda, refreshed.access_token)).toMatchObject({ scopes: ["read", "write"] })
    // the old refresh token was rotated: presenting it again is refused (and ends the connection)
    await expect(
      oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure)
      )
    ).rejects.toMatchObject({ error: "invalid_grant" })
    expect(await authenticate(served.roda, refreshed.access_token)).toEqual({ failed: true })
  })

  it("revokes with RFC 7009; a replayed code is refused with invalid_grant", async () => {
    const { community, owner } = await newCommunity(served.api, "oauth4webapi revoke")
    const issuer = new URL(served.base)
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { ...insecure, algorithm: "oauth2" })
    )
    const redirectUri = "http://localhost/cb"
    const registered = await oauth.processDynamicClientRegistrationResponse(
      await oauth.dynamicClientRegistrationRequest(as, { redirect_uris: [redirectUri] }, insecure)
    )
    const client: oauth.Client = { client_id: registered.client_id, token_endpoint_auth_method: "none" }
    const verifier = oauth.generateRandomCodeVerifier()
    const authorizationUrl = new URL(as.authorization_endpoint!)
    authorizationUrl.search = new URLSearchParams({
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: redirectUri,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256"
    }).toString()
    const params = oauth.validateAuthResponse(
      as,
      client,
      await consentFor(authorizationUrl, owner, community.id),
      oauth.expectNoState
    )
    const exchange = () =>
      oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, verifier, insecure)
    const tokens = await oauth.processAuthorizationCodeResponse(as, client, await exchange())
    await expect(oauth.processAuthorizationCodeResponse(as, client, await exchange())).rejects.toMatchObject({
      error: "invalid_grant"
    })
    // the replay revoked the connection the first exchange created
    expect(await authenticate(served.roda, tokens.access_token)).toEqual({ failed: true })

    const again = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(
        as,
        client,
        oauth.None(),
        oauth.validateAuthResponse(
          as,
          client,
          await consentFor(authorizationUrl, owner, community.id),
          oauth.expectNoState
        ),
        redirectUri,
        verifier,
        insecure
      )
    )
    expect(await authenticate(served.roda, again.access_token)).toMatchObject({ member: { role: "owner" } })
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), again.access_token, insecure)
    )
    expect(await authenticate(served.roda, again.access_token)).toEqual({ failed: true })
  })
})

describe("Client ID Metadata Documents", () => {
  let served: ServedRoda
  let documents: Server
  let documentBase = ""
  let size = 0
  beforeAll(async () => {
    // Only under the test option may a metadata document be served over plain HTTP from 127.0.0.1.
    served = await serveRoda({ oauthAllowHttpMetadataDocuments: true })
    documents = createServer((request, response) => {
      const self = `${documentBase}${request.url}`
      if (request.url === "/big.json") {
        response.end(JSON.stringify({ client_id: self, redirect_uris: ["http://127.0.0.1/cb"], pad: "x".repeat(6000) }))
        return
      }
      if (request.url === "/liar.json") {
        response.end(
          JSON.stringify({ client_id: "https://other.example/c.json", redirect_uris: ["http://127.0.0.1/cb"] })
        )
        return
      }
      size++
      response.setHeader("content-type", "application/json")
      response.end(
        JSON.stringify({ client_id: self, client_name: "Documented", redirect_uris: ["http://127.0.0.1/cb"] })
      )
    })
    await new Promise<void>((resolve) => documents.listen(0, "127.0.0.1", resolve))
    const address = documents.address()
    documentBase = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`
  })
  afterAll(async () => {
    await new Promise((resolve) => documents.close(resolve))
    await served.close()
  })

  const start = (clientId: string) => authorizeAs(served.api, clientId)

  it("uses a fetched document's redirect_uris, fetched once and cached", async () => {
    const clientId = `${documentBase}/client.json`
    expect((await start(clientId)).status).toBe(302)
    expect((await start(clientId)).status).toBe(302)
    expect(size).toBe(1)
    const { owner } = await newCommunity(served.api, "CIMD")
    const location = (await start(clientId)).headers.get("location")!
    const info = await served.api.get(
      `/api/oauth/authorize/info?request_id=${new URL(location).searchParams.get("request_id")}`,
      { token: owner.token }
    )
    expect(info.body.data.client).toEqual({ id: clientId, name: "Documented", uri: null })
  })

  it("refuses a document larger than 5 kB, one naming another client_id, and http without the test option", async () => {
    expect((await start(`${documentBase}/big.json`)).status).toBe(400)
    expect((await start(`${documentBase}/liar.json`)).status).toBe(400)
    const strict = await serveRoda()
    try {
      expect(
        (await strict.api.get(
          `/oauth/authorize?${new URLSearchParams({
            response_type: "code",
            client_id: `${documentBase}/strict.json`,
            redirect_uri: "http://127.0.0.1/cb",
            code_challenge: "a".repeat(43),
            code_challenge_method: "S256"
          })}`
        )).status
      ).toBe(400)
    } finally {
      await strict.close()
    }
  })
})
