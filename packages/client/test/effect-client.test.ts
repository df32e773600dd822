import { makeRodaClient, type RodaClientOptions } from "@roda/client"
import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Messages } from "../../core/src/domain/Messages"
import { fails, ok } from "../../core/test/support/contract"
import { PASSWORD, startRoda, uniqueEmail } from "../../core/test/support/harness"
import { handlerHttpClient } from "../../core/test/support/inProcess"

const roda = startRoda()
afterAll(() => roda.dispose())

/** The client as a host makes it, with a trailing slash on its base URL, over `roda.handler`. */
const clientFor = (options: Omit<RodaClientOptions, "baseUrl">) =>
  Effect.runSync(
    makeRodaClient({ baseUrl: "http://roda.test/", ...options } as RodaClientOptions).pipe(
      Effect.provide(handlerHttpClient(roda))
    )
  )

const signedUp = async () => {
  const email = uniqueEmail("effect")
  const registered = await ok(
    clientFor({}).identity.register({ payload: { fullName: "Eva Effect", email, password: PASSWORD } })
  )
  return { email, token: registered.data.token }
}

describe("makeRodaClient", () => {
  it("signs up, signs in and works in a community, with the answers decoded", async () => {
    const { email } = await signedUp()
    const login = await ok(clientFor({}).identity.login({ payload: { email, password: PASSWORD } }))
    const me = clientFor({ token: login.data.token })
    const community = await ok(me.communities.create({ payload: { name: `Effect Club ${email}` } }))
    expect(community.data.name).toBe(`Effect Club ${email}`)
    const inCommunity = clientFor({ token: login.data.token, communityId: community.data.id })
    const section = await ok(inCommunity.sections.create({ payload: { title: "Welcome" } }))
    const listed = await ok(inCommunity.sections.list({ urlParams: { limit: 10 } }))
    expect(listed.data.map((each) => each.id)).toEqual([section.data.id])
  })

  it("fails with the operation's typed errors: 409, 401, 400 with errors[].param, 404 of another community", async () => {
    const { email, token } = await signedUp()
    await fails(
      clientFor({}).identity.register({ payload: { fullName: "Eva Again", email, password: PASSWORD } }),
      409
    )
    await fails(clientFor({}).communities.create({ payload: { name: "No token" } }), 401)
    const missingHeader = await fails(clientFor({ token }).sections.list({ urlParams: {} }), 400)
    expect(missingHeader.errors?.[0]).toMatchObject({ param: "X-CommunityId", location: "headers" })

    const mine = await ok(clientFor({ token }).communities.create({ payload: { name: `Mine ${email}` } }))
    const other = await signedUp()
    const theirs = await ok(
      clientFor({ token: other.token }).communities.create({ payload: { name: `Theirs ${email}` } })
    )
    const section = await ok(
      clientFor({ token: other.token, communityId: theirs.data.id }).sections.create({ payload: { title: "Theirs" } })
    )
    const asOwnerOfMine = clientFor({ token, communityId: mine.data.id })
    await fails(asOwnerOfMine.sections.get({ path: { id: section.data.id } }), 404)
  })

  it("asks for the messages in English with `language`", async () => {
    const owner = await signedUp()
    const community = await ok(
      clientFor({ token: owner.token }).communities.create({ payload: { name: `En ${owner.email}` } })
    )
    const stranger = await signedUp()
    const inEnglish = clientFor({ token: stranger.token, communityId: community.data.id, language: "en" })
    const error = await fails(inEnglish.sections.create({ payload: { title: "Not mine" } }), 403)
    expect(error.text.en).toBe(Messages.notMember.en)
  })

  it("sends an API key as the Bearer credential (platform.md): a key the server does not know answers 401", async () => {
    const error = await fails(
      clientFor({
        apiKey: "rk_not-a-key-the-server-issued-0123456789abcdef",
        communityId: "0190a4c2-0000-7000-8000-000000000000"
      }).sections.list({ urlParams: {} }),
      401
    )
    expect(error.text.pt).toBe(Messages.tokenInvalid.pt)
  })
})
