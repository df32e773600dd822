import { afterAll, describe, expect, it } from "vitest"
import { as, newCommunity } from "./support/community"
import { expectOk, uniqueTag } from "./support/envelope"
import { client, register, startRoda } from "./support/harness"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const namesOf = (profiles: ReadonlyArray<{ fullName: string }>) => profiles.map((p) => p.fullName)

describe("GET /api/profiles/autocomplete: name and e-mail matches together", () => {
  const setup = async () => {
    const tag = uniqueTag().toLowerCase()
    const c = await newCommunity(api)
    // Names sort as Bruno < Carla < Davi < Elza; e-mails start with the tag for Carla and Elza only.
    const bruno = await c.addMember("member", `Bruno ${tag}`)
    const davi = await c.addMember("member", `Davi ${tag}x`)
    const carla = await register(api, "Carla Nunes", `${tag}.carla@roda.test`)
    const elza = await register(api, "Elza Prado", `${tag}_elza@roda.test`)
    for (const user of [carla, elza]) {
      const invited = expectOk(
        await api.post("/api/profiles/create", { email: user.email }, as(c.owner, c.community)),
        201
      )
      expectOk(await api.post(`/api/profiles/${invited.id}/accept`, undefined, as(user, c.community)))
    }
    return { c, tag, bruno, davi }
  }

  it("orders name and e-mail matches together by name, and the limit keeps the first ones", async () => {
    const { c, tag, bruno } = await setup()
    const search = async (q: string, limit = 10) =>
      namesOf(expectOk(
        await api.get(
          `/api/profiles/autocomplete?q=${encodeURIComponent(q)}&limit=${limit}`,
          as(c.owner, c.community)
        )
      ))
    const all = ["Bruno " + tag, "Carla Nunes", "Davi " + tag + "x", "Elza Prado"]
    expect(await search(tag)).toEqual(all)
    expect(await search(tag.toUpperCase())).toEqual(all)
    for (const limit of [1, 2, 3]) expect(await search(tag, limit)).toEqual(all.slice(0, limit))
    // `_` and `.` are literal in the e-mail prefix.
    expect(await search(`${tag}_`)).toEqual(["Elza Prado"])
    expect(await search(`${tag}.`)).toEqual(["Carla Nunes"])
    // Members see name matches only.
    const asMember = expectOk(
      await api.get(
        `/api/profiles/autocomplete?q=${encodeURIComponent(tag)}`,
        as(bruno, c.community)
      )
    )
    expect(namesOf(asMember)).toEqual(["Bruno " + tag, "Davi " + tag + "x"])
  })
})
