import { createRodaFetchClient } from "@roda/client/fetch"

/** Any other host (no Effect): the same calls with the fetch client typed from the OpenAPI document. */
export const onboardWithFetch = async (baseUrl: string, email: string) => {
  const anonymous = createRodaFetchClient({ baseUrl })
  const signedUp = await anonymous.POST("/api/auth/register", {
    body: { fullName: "Fia Fetch", email, password: "Secret123" }
  })
  if (!signedUp.data) throw new Error(signedUp.error?.message)
  const { token } = signedUp.data.data
  const community = await createRodaFetchClient({ baseUrl, token }).POST("/api/communities", {
    body: { name: "Fetch Readers" }
  })
  if (!community.data) throw new Error(community.error?.message)
  const roda = createRodaFetchClient({ baseUrl, token, communityId: community.data.data.id })
  await roda.POST("/api/sections", { body: { title: "Welcome" } })
  const sections = await roda.GET("/api/sections", { params: { query: { limit: 10 } } })
  const again = await anonymous.POST("/api/auth/register", {
    body: { fullName: "Fia Again", email, password: "Secret123" }
  })
  return {
    community: community.data.data.name,
    sections: (sections.data?.data ?? []).map((section) => section.title),
    again: `${again.response.status}: ${again.error?.message}`
  }
}
