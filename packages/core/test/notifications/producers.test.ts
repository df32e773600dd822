import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type SocialCommunity, socialCommunity } from "../social/setup"
import { as } from "../support/community"
import { expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { createSection, createSpace, setGrants } from "../support/structure"
import { inbox, mention, postStatus, type Who } from "./setup"

/** Issue 55, item 1: the first producers, `mention` and `reply`, through the social routes. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let spaces: Record<"open" | "gated", { id: string }>
beforeAll(async () => {
  setup = await socialCommunity(api, "Produtores")
  const section = await createSection(api, setup, { visibility: "public" })
  spaces = {
    open: await createSpace(api, setup, section.id, { module: "feed", visibility: "public", title: "Geral" }),
    gated: await createSpace(api, setup, section.id, { module: "feed", visibility: "public", title: "Pago" })
  }
  await setGrants(roda, spaces.gated.id, { plans: [unknownId()] })
})

/** A fresh member, so that their inbox holds only what the test makes. */
const member = (name: string) => setup.addMember("member", name)
const comment = async (user: Who, statusId: string, body: string, parentId?: string) =>
  (expectOk(
    await api.post(
      `/api/status/${statusId}/comment`,
      parentId === undefined ? { body } : { body, parentId },
      as(user, setup.community)
    ),
    201
  ) as { id: string }).id
const kinds = async (user: Who) =>
  (await inbox(api, setup, user)).map((n) => `${n.kind} ${n.actor?.fullName} ${n.subject.type}`)

describe("mention", () => {
  it("a status post without mentions notifies nobody; with them, those mentioned who are members", async () => {
    const carla = await member("Carla Citada")
    const before = await query<{ n: number }>(roda, (sql) => sql`SELECT count(*)::int AS n FROM notifications`)
    await postStatus(api, setup, setup.alice, "Sem ninguém")
    expect(await query(roda, (sql) => sql`SELECT count(*)::int AS n FROM notifications`)).toEqual(before)
    const stranger = { profileId: unknownId(), token: "" }
    await postStatus(api, setup, setup.alice, `Olá ${mention(carla)} ${mention(stranger)} ${mention(setup.alice)}`)
    expect(await kinds(carla)).toEqual(["mention Alice Alves status"])
    expect(await inbox(api, setup, setup.alice)).toEqual([])
  })

  it("a content post notifies those mentioned who may read its space, with its title", async () => {
    const dani = await member("Dani Dentro")
    const content = expectOk(
      await api.post(
        "/api/content",
        { spaceId: spaces.open.id, title: "Roteiro", body: `Veja, ${mention(dani)}` },
        as(setup.bruno, setup.community)
      ),
      201
    )
    const [item] = await inbox(api, setup, dani)
    expect(item).toMatchObject({
      kind: "mention",
      actor: { profileId: setup.bruno.profileId, fullName: "Bruno Braga" },
      subject: { type: "content", id: content.id, title: "Roteiro" },
      text: "Bruno Braga mencionou você em “Roteiro”."
    })
    // A gated space: staff post there; a member who may not read it is not told of it.
    const edu = await member("Edu Fora")
    expectOk(
      await api.post(
        "/api/content",
        { spaceId: spaces.gated.id, title: "Segredo", body: `${mention(edu)} ${mention(setup.moderator)}` },
        as(setup.owner, setup.community)
      ),
      201
    )
    expect(await inbox(api, setup, edu)).toEqual([])
    expect((await inbox(api, setup, setup.moderator, "?limit=1"))[0].subject.title).toBe("Segredo")
  })

  it("a comment notifies those it mentions, about the post it is on", async () => {
    const fabi = await member("Fabi Falada")
    const statusId = await postStatus(
      api,
      setup,
      setup.alice,
      "Um post comprido o bastante para ser cortado no título da notificação, pois passa de oitenta letras"
    )
    await comment(setup.bruno, statusId, `Concordo, ${mention(fabi)}`)
    const [item] = await inbox(api, setup, fabi)
    expect(item).toMatchObject({
      kind: "mention",
      actor: { profileId: setup.bruno.profileId },
      subject: {
        type: "status",
        id: statusId,
        title: "Um post comprido o bastante para ser cortado no título da notificação, pois pas…"
      }
    })
  })

  it("an edit notifies only those it mentions for the first time", async () => {
    const [gil, hana] = [await member("Gil Antes"), await member("Hana Depois")]
    const statusId = await postStatus(api, setup, setup.alice, `Oi ${mention(gil)}`)
    expectOk(
      await api.put(
        `/api/status/${statusId}`,
        { body: `Oi ${mention(gil)} e ${mention(hana)}` },
        as(setup.alice, setup.community)
      )
    )
    expect(await kinds(gil)).toEqual(["mention Alice Alves status"])
    expect(await kinds(hana)).toEqual(["mention Alice Alves status"])
    const commentId = await comment(setup.bruno, statusId, "Sem menção")
    expectOk(
      await api.put(
        `/api/status/${statusId}/comment/${commentId}`,
        { body: `Agora ${mention(hana)}` },
        as(setup.bruno, setup.community)
      )
    )
    expect(await kinds(hana)).toEqual(["mention Bruno Braga status", "mention Alice Alves status"])
  })
})

describe("reply", () => {
  it("a comment on your post, and a reply to your comment, notify you; your own do not", async () => {
    const [ines, joao] = [await member("Inês Autora"), await member("João Comenta")]
    const statusId = await postStatus(api, setup, ines, "Minha pergunta")
    const first = await comment(joao, statusId, "Minha resposta")
    expect(await kinds(ines)).toEqual(["reply João Comenta status"])
    await comment(ines, statusId, "Obrigada!", first)
    expect(await kinds(joao)).toEqual(["reply Inês Autora status"])
    expect(await kinds(ines)).toEqual(["reply João Comenta status"])
    // A third person's reply tells the comment's author and the post's.
    await comment(setup.bruno, statusId, "Eu também", first)
    expect(await kinds(joao)).toEqual(["reply Bruno Braga status", "reply Inês Autora status"])
    expect(await kinds(ines)).toEqual(["reply Bruno Braga status", "reply João Comenta status"])
    const [item] = await inbox(api, setup, ines, "?limit=1")
    expect(item).toMatchObject({ subject: { type: "status", id: statusId, title: "Minha pergunta" } })
    expect(item.text).toBe("Bruno Braga respondeu a você em “Minha pergunta”.")
    const english = await api.get("/api/notifications?limit=1", {
      ...as(ines, setup.community),
      headers: { "accept-language": "en-US,en;q=0.9" }
    })
    expect(expectOk(english)[0].text).toBe("Bruno Braga replied to you in “Minha pergunta”.")
  })

  it("one mentioned in a reply is told of the mention only", async () => {
    const [kiko, lia] = [await member("Kiko Post"), await member("Lia Fala")]
    const statusId = await postStatus(api, setup, kiko, "Enquete")
    await comment(lia, statusId, `Boa, ${mention(kiko)}`)
    expect(await kinds(kiko)).toEqual(["mention Lia Fala status"])
  })

  it("a comment on a content post tells its author", async () => {
    const [mara, nina] = [await member("Mara Conteúdo"), await member("Nina Leitora")]
    const content = expectOk(
      await api.post(
        "/api/content",
        { spaceId: spaces.open.id, title: "Guia", body: "Texto" },
        as(mara, setup.community)
      ),
      201
    )
    expectOk(
      await api.post(`/api/feed/content/${content.id}/comment`, { body: "Ótimo guia" }, as(nina, setup.community)),
      201
    )
    expect((await inbox(api, setup, mara)).map((n) => [n.kind, n.subject])).toEqual([
      ["reply", { type: "content", id: content.id, title: "Guia" }]
    ])
  })

  it("a member removed since is told nothing", async () => {
    const [rui, sol] = [await member("Rui Saiu"), await member("Sol Fica")]
    const statusId = await postStatus(api, setup, rui, "Até logo")
    expectOk(await api.del(`/api/profiles/${rui.profileId}`, as(setup.owner, setup.community)))
    await comment(sol, statusId, `Sentiremos falta, ${mention(rui)}`)
    const rows = await query(
      roda,
      (sql) => sql`SELECT id FROM notifications WHERE recipient_profile_id = ${rui.profileId}`
    )
    expect(rows).toEqual([])
  })

  it("reply turned off in the app: not written", async () => {
    const [otto, pia] = [await member("Otto Quieto"), await member("Pia Comenta")]
    expectOk(await api.put("/api/notification-preferences", { reply: { inApp: false } }, as(otto, setup.community)))
    const statusId = await postStatus(api, setup, otto, "Sem avisos, por favor")
    await comment(pia, statusId, "Ok")
    expect(await inbox(api, setup, otto)).toEqual([])
  })
})

describe("space_post", () => {
  it("a content post tells the space's followers through a job, the author excepted", async () => {
    // A space of its own: a fan-out of an earlier test's post may still be on its way to `spaces.open`.
    const section = await createSection(api, setup, { visibility: "public" })
    const space = await createSpace(api, setup, section.id, {
      module: "feed",
      visibility: "public",
      title: "Novidades"
    })
    const fan = await member("Fran Fiel")
    const author = await member("Gabi Autora")
    for (const user of [fan, author]) {
      expectOk(await api.post(`/api/spaces/${space.id}/follow`, undefined, as(user, setup.community)))
    }
    const content = expectOk(
      await api.post(
        "/api/content",
        { spaceId: space.id, title: "Novidade", body: "Corpo" },
        as(author, setup.community)
      ),
      201
    )
    const deadline = Date.now() + 15_000
    let told = await inbox(api, setup, fan)
    while (told.length === 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200))
      told = await inbox(api, setup, fan)
    }
    expect(told.map((n) => [n.kind, n.actor?.fullName, n.subject])).toEqual([
      ["space_post", "Gabi Autora", { type: "content", id: content.id, title: "Novidade" }]
    ])
    expect(await inbox(api, setup, author)).toEqual([])
  })
})
