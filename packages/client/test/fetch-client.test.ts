import { createRodaFetchClient, type RodaFetchClientOptions } from "@roda/client/fetch"
import { afterAll, describe, expect, it } from "vitest"
import { Messages } from "../../core/src/domain/Messages"
import { PASSWORD, startRoda, uniqueEmail } from "../../core/test/support/harness"
import { handlerFetch } from "../../core/test/support/inProcess"

const roda = startRoda()
afterAll(() => roda.dispose())

const clientFor = (options: Omit<RodaFetchClientOptions, "baseUrl" | "fetch">) =>
  createRodaFetchClient(
    { baseUrl: "http://roda.test", fetch: handlerFetch(roda), ...options } as RodaFetchClientOptions
  )

describe("createRodaFetchClient", () => {
  it("signs up and works in a community, typed from the OpenAPI document", async () => {
    const email = uniqueEmail("fetch")
    const anonymous = clientFor({})
    const registered = await anonymous.POST("/api/auth/register", {
      body: { fullName: "Fia Fetch", email, password: PASSWORD }
    })
    expect(registered.response.status).toBe(201)
    const token = registered.data!.data.token
    const community = await clientFor({ token }).POST("/api/communities", { body: { name: `Fetch Club ${email}` } })
    expect(community.response.status).toBe(201)
    const inCommunity = clientFor({ token, communityId: community.data!.data.id })
    const section = await inCommunity.POST("/api/sections", { body: { title: "Welcome" } })
    expect(section.data?.data.title).toBe("Welcome")
    const shown = await inCommunity.GET("/api/sections/{id}", { params: { path: { id: section.data!.data.id } } })
    expect(shown.data?.data).toMatchObject({ id: section.data!.data.id, visibility: "public" })
    const listed = await inCommunity.GET("/api/sections", { params: { query: { limit: 5 } } })
    expect(listed.data?.data.map((each) => each.id)).toEqual([section.data!.data.id])
  })

  it("gives the error envelope as `error`, in the asked language", async () => {
    const owner = await clientFor({}).POST("/api/auth/register", {
      body: { fullName: "Fia Owner", email: uniqueEmail("fetch"), password: PASSWORD }
    })
    const community = await clientFor({ token: owner.data!.data.token }).POST("/api/communities", {
      body: { name: `Fetch En ${owner.data!.data.id}` }
    })
    const stranger = await clientFor({}).POST("/api/auth/register", {
      body: { fullName: "Fia Stranger", email: uniqueEmail("fetch"), password: PASSWORD }
    })
    const inEnglish = clientFor({
      token: stranger.data!.data.token,
      communityId: community.data!.data.id,
      language: "en"
    })
    const refused = await inEnglish.POST("/api/sections", { body: { title: "Not mine" } })
    expect(refused.response.status).toBe(403)
    expect(refused.error).toEqual({ success: false, code: "not_member", message: Messages.notMember.en })

    const reply = await clientFor({ language: "en" }).POST("/api/communities", { body: { name: "No token" } })
    expect(reply.response.status).toBe(401)
    expect(reply.data).toBeUndefined()
    expect(reply.error).toEqual({ success: false, code: "token_required", message: Messages.tokenRequired.en })
    const invalid = await clientFor({}).POST("/api/auth/register", {
      body: { fullName: "X", email: "not-an-email", password: PASSWORD }
    })
    expect(invalid.response.status).toBe(400)
    expect(invalid.error?.errors?.map((each) => each.param)).toContain("email")
  })
})
