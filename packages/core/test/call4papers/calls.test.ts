import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, uniqueTag, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"
import { createSection, createSpace } from "../support/structure"
import {
  CALL_NOT_FOUND,
  type CallCommunity,
  callCommunity,
  openCall,
  ORGANISER_REQUIRED,
  publishedCall,
  STAFF_REQUIRED
} from "./calls-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Person = { token: string; profileId: string }
let setup: CallCommunity
let other: CallCommunity
let people: Record<"admin" | "moderator" | "member" | "callOwner", Person>
beforeAll(async () => {
  setup = await callCommunity(api)
  other = await callCommunity(api, "Outra")
  people = {
    admin: await setup.addMember("admin"),
    moderator: await setup.addMember("moderator"),
    member: await setup.addMember("member", "Mara Member"),
    callOwner: await setup.addMember("member", "Otto Owner")
  }
})
const owner = () => as(setup.owner, setup.community)
const anonymous = () => ({ community: setup.community.id })

/** Makes `person` an accepted owner of the call (invite, accept). */
const makeOwner = async (callId: string, person: Person) => {
  const invited = expectCreated(
    await api.post(`/api/call4papers/${callId}/owners`, { profileId: person.profileId }, owner())
  )
  expectOk(await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, as(person, setup.community)))
}

describe("space configuration", () => {
  it("GET is public with the default mode; PUT by staff sets the mode", async () => {
    const anon = expectOk(
      await api.get(`/api/call4papers/spaces/${setup.space.id}`, anonymous()),
      200,
      "Configuração do espaço."
    )
    expect(anon).toMatchObject({ spaceId: setup.space.id, mode: "organisers", canOpenCall: false, canConfigure: false })
    const asMember = expectOk(
      await api.get(`/api/call4papers/spaces/${setup.space.id}`, as(people.member, setup.community))
    )
    expect(asMember).toMatchObject({ canOpenCall: false, canConfigure: false })
    const asStaff = expectOk(
      await api.get(`/api/call4papers/spaces/${setup.space.id}`, as(people.moderator, setup.community))
    )
    expect(asStaff).toMatchObject({ canOpenCall: true, canConfigure: true })

    expectError(
      await api.put(
        `/api/call4papers/spaces/${setup.space.id}`,
        { mode: "members" },
        as(people.member, setup.community)
      ),
      403,
      STAFF_REQUIRED("member")
    )
    expectInvalid(await api.put(`/api/call4papers/spaces/${setup.space.id}`, { mode: "everyone" }, owner()), "mode")
    expectInvalid(await api.put(`/api/call4papers/spaces/${setup.space.id}`, { mode: "members", x: 1 }, owner()), "x")
    const set = expectOk(
      await api.put(`/api/call4papers/spaces/${setup.space.id}`, { mode: "members" }, owner()),
      200,
      "Configuração do espaço atualizada."
    )
    expect(set).toMatchObject({ mode: "members", canConfigure: true })
    const now = expectOk(await api.get(`/api/call4papers/spaces/${setup.space.id}`, as(people.member, setup.community)))
    expect(now).toMatchObject({ mode: "members", canOpenCall: true })

    // a member opens a call in mode members and becomes its owner
    const call = await openCall(api, setup, { title: `Aberta por membro ${uniqueTag()}` }, people.member)
    const owners = expectOk(await api.get(`/api/call4papers/${call.id}/owners`, as(people.member, setup.community)))
    expect(owners).toEqual([expect.objectContaining({ profileId: people.member.profileId, status: "accepted" })])
    await api.del(`/api/call4papers/${call.id}`, owner())

    expectOk(await api.put(`/api/call4papers/spaces/${setup.space.id}`, { mode: "organisers" }, owner()))
    expectError(
      await api.post("/api/call4papers", { spaceId: setup.space.id, title: "Não" }, as(people.member, setup.community)),
      403,
      STAFF_REQUIRED("member")
    )
  })

  it("404 for a space of another community, of another module, or unknown; 400 for a malformed id", async () => {
    expectError(await api.get(`/api/call4papers/spaces/${other.space.id}`, anonymous()), 404)
    expectError(await api.put(`/api/call4papers/spaces/${other.space.id}`, { mode: "members" }, owner()), 404)
    const courses = await createSpace(api, setup, setup.section.id, { visibility: "public", module: "courses" })
    expectError(await api.get(`/api/call4papers/spaces/${courses.id}`, anonymous()), 404)
    expectError(await api.get(`/api/call4papers/spaces/${courses.id}/calls`, anonymous()), 404)
    expectError(await api.get(`/api/call4papers/spaces/${other.space.id}/calls`, anonymous()), 404)
    expectError(await api.get(`/api/call4papers/spaces/${unknownId()}`, anonymous()), 404)
    expectInvalid(await api.get(`/api/call4papers/spaces/nope`, anonymous()), "spaceId", "params")
  })
})

describe("POST /api/call4papers (open a call)", () => {
  it("opens a draft call with a slug from the title; the creator is an accepted owner", async () => {
    const tag = uniqueTag()
    const data = expectCreated(
      await api.post(
        "/api/call4papers",
        {
          spaceId: setup.space.id,
          title: `Palestras Ação ${tag}`,
          description: "Envie sua proposta",
          opensAt: "2030-01-01T00:00:00Z",
          closesAt: "2030-02-01T00:00:00Z",
          communityVoting: true
        },
        as(people.admin, setup.community)
      ),
      "Chamada de trabalhos aberta com sucesso."
    )
    expect(data).toMatchObject({
      communityId: setup.community.id,
      spaceId: setup.space.id,
      slug: `palestras-acao-${tag}`,
      status: "draft",
      allowedMoves: ["publish"],
      opensAt: "2030-01-01T00:00:00.000Z",
      closesAt: "2030-02-01T00:00:00.000Z",
      communityVoting: true,
      anonymousReviews: false,
      acceptingSubmissions: false,
      createdByProfileId: people.admin.profileId,
      publishedAt: null
    })
    const rows = await query(
      roda,
      (sql) => sql`SELECT profile_id, status FROM call4papers_owners WHERE call_id = ${data.id}`
    )
    expect(rows).toEqual([{ profileId: people.admin.profileId, status: "accepted" }])
  })

  it("400 with errors[].param for bad input", async () => {
    expectInvalid(await api.post("/api/call4papers", { title: "Sem espaço" }, owner()), "spaceId")
    expectError(
      await api.post("/api/call4papers", { title: "Sem espaço" }, owner()),
      400,
      "ID do espaço é obrigatório."
    )
    expectInvalid(await api.post("/api/call4papers", { spaceId: setup.space.id }, owner()), "title")
    expectInvalid(await api.post("/api/call4papers", { spaceId: setup.space.id, title: "" }, owner()), "title")
    expectInvalid(
      await api.post("/api/call4papers", { spaceId: setup.space.id, title: "X", slug: "Não Slug" }, owner()),
      "slug"
    )
    expectInvalid(
      await api.post("/api/call4papers", { spaceId: setup.space.id, title: "X", extra: true }, owner()),
      "extra"
    )
    expectInvalid(
      await api.post("/api/call4papers", { spaceId: setup.space.id, title: "X", closesAt: "amanhã" }, owner()),
      "closesAt"
    )
    // dates out of order
    const order = expectInvalid(
      await api.post(
        "/api/call4papers",
        { spaceId: setup.space.id, title: "X", opensAt: "2030-02-01T00:00:00Z", closesAt: "2030-01-01T00:00:00Z" },
        owner()
      ),
      "closesAt"
    )
    expect(order.message).toBe("A abertura (opensAt) deve ser anterior ao encerramento (closesAt).")
    expectInvalid(await api.post("/api/call4papers", { spaceId: "nope", title: "X" }, owner()), "spaceId")
    // a space of another community, of another module
    expectInvalid(await api.post("/api/call4papers", { spaceId: other.space.id, title: "X" }, owner()), "spaceId")
    const courses = await createSpace(api, setup, setup.section.id, { module: "courses" })
    expectInvalid(await api.post("/api/call4papers", { spaceId: courses.id, title: "X" }, owner()), "spaceId")
    expectError(await api.post("/api/call4papers", { spaceId: setup.space.id, title: "X" }), 401)
  })

  it("an explicit slug taken in the space is a 409; a generated one gets a suffix; free again after delete", async () => {
    const slug = `cfp-${uniqueTag()}`
    const first = await openCall(api, setup, { slug })
    const taken = expectError(
      await api.post("/api/call4papers", { spaceId: setup.space.id, title: "X", slug }, owner()),
      409
    )
    expect(taken.errors[0].param).toBe("slug")
    const title = `Mesmo título ${uniqueTag()}`
    const a = await openCall(api, setup, { title })
    const b = await openCall(api, setup, { title })
    expect(b.slug).toBe(`${a.slug}-2`)
    expectOk(await api.del(`/api/call4papers/${first.id}`, owner()))
    await openCall(api, setup, { slug })
  })
})

describe("call lifecycle (states.md: draft -> published -> closed, closed -> published, published -> draft)", () => {
  it("every named move allowed, and refused from the other states with 409 and the allowed moves", async () => {
    const call = await openCall(api, setup)
    const path = (move: string) => `/api/call4papers/${call.id}/${move}`
    // from draft: only publish
    for (const move of ["unpublish", "close", "reopen"]) {
      const refused = expectError(await api.post(path(move), undefined, owner()), 409)
      expect(refused.errors[0].param).toBe("status")
      expect(refused.message).toContain("Movimentos permitidos: publish.")
    }
    const published = expectOk(await api.post(path("publish"), undefined, owner()), 200, "Chamada publicada.")
    expect(published).toMatchObject({
      status: "published",
      allowedMoves: ["unpublish", "close"],
      acceptingSubmissions: true
    })
    expect(published.publishedAt).not.toBeNull()
    // from published: unpublish, close
    for (const move of ["publish", "reopen"]) {
      const refused = expectError(await api.post(path(move), undefined, owner()), 409)
      expect(refused.message).toContain("Movimentos permitidos: unpublish, close.")
    }
    expect(expectOk(await api.post(path("unpublish"), undefined, owner()), 200, "Chamada despublicada.").status).toBe(
      "draft"
    )
    expectOk(await api.post(path("publish"), undefined, owner()))
    const closed = expectOk(await api.post(path("close"), undefined, owner()), 200, "Chamada encerrada.")
    expect(closed).toMatchObject({ status: "closed", allowedMoves: ["reopen"], acceptingSubmissions: false })
    expect(closed.closedAt).not.toBeNull()
    // from closed: only reopen
    for (const move of ["publish", "unpublish", "close"]) {
      const refused = expectError(await api.post(path(move), undefined, owner()), 409)
      expect(refused.message).toContain("Movimentos permitidos: reopen.")
    }
    const reopened = expectOk(await api.post(path("reopen"), undefined, owner()), 200, "Chamada reaberta.")
    expect(reopened).toMatchObject({ status: "published", closedAt: null })
  })

  it("PATCH /{id}/status follows the same table", async () => {
    const call = await openCall(api, setup)
    const patch = (status: string, who = owner()) => api.patch(`/api/call4papers/${call.id}/status`, { status }, who)
    for (const status of ["draft", "closed"]) {
      const refused = expectError(await patch(status), 409)
      expect(refused.errors[0].param).toBe("status")
      expect(refused.message).toBe(
        `Não é possível mudar a chamada de draft para ${status}. Movimentos permitidos: published.`
      )
    }
    expect(expectOk(await patch("published"), 200, "Situação da chamada alterada.").status).toBe("published")
    expectError(await patch("published"), 409)
    expect(expectOk(await patch("closed")).status).toBe("closed")
    const refused = expectError(await patch("draft"), 409)
    expect(refused.message).toBe(
      "Não é possível mudar a chamada de closed para draft. Movimentos permitidos: published."
    )
    expect(expectOk(await patch("published")).status).toBe("published")
    expect(expectOk(await patch("draft")).status).toBe("draft")
    expectInvalid(await patch("archived"), "status")
    const en = await api.patch(`/api/call4papers/${call.id}/status`, { status: "closed" }, {
      ...owner(),
      headers: { "accept-language": "en" }
    })
    expect(expectError(en, 409).message).toBe("The call cannot move from draft to closed. Allowed moves: published.")
  })

  it("only organisers move a call: member 403, anonymous 401; moves by staff and an accepted owner", async () => {
    const call = await publishedCall(api, setup)
    expectError(
      await api.post(`/api/call4papers/${call.id}/close`, undefined, as(people.member, setup.community)),
      403,
      ORGANISER_REQUIRED
    )
    expectError(
      await api.patch(`/api/call4papers/${call.id}/status`, { status: "closed" }, as(people.member, setup.community)),
      403
    )
    expectError(await api.post(`/api/call4papers/${call.id}/close`, undefined, anonymous()), 401)
    expectOk(await api.post(`/api/call4papers/${call.id}/close`, undefined, as(people.moderator, setup.community)))
    await makeOwner(call.id, people.callOwner)
    expectOk(await api.post(`/api/call4papers/${call.id}/reopen`, undefined, as(people.callOwner, setup.community)))
  })

  it("two concurrent closes settle once: one 200, one 409", async () => {
    const call = await publishedCall(api, setup)
    const replies = await Promise.all([
      api.post(`/api/call4papers/${call.id}/close`, undefined, owner()),
      api.post(`/api/call4papers/${call.id}/close`, undefined, as(people.admin, setup.community))
    ])
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409])
  })
})

describe("reading calls (Public)", () => {
  it("anonymous callers and members see published and closed calls only; organisers and owners see drafts", async () => {
    const tag = uniqueTag()
    const draft = await openCall(api, setup, { title: `Rascunho ${tag}` })
    const published = await publishedCall(api, setup, { title: `Publicada ${tag}` })
    const closed = await publishedCall(api, setup, { title: `Encerrada ${tag}` })
    expectOk(await api.post(`/api/call4papers/${closed.id}/close`, undefined, owner()))

    const list = async (who: { community: string; token?: string }) => {
      const ids: Array<string> = []
      let cursor: string | undefined
      for (;;) {
        const reply = await api.get(
          `/api/call4papers/spaces/${setup.space.id}/calls?limit=100${cursor ? `&cursor=${cursor}` : ""}`,
          who
        )
        const data = expectOk(reply, 200, "Chamadas encontradas.")
        ids.push(...data.map((call: { id: string }) => call.id))
        cursor = reply.body.pagination.nextCursor ?? undefined
        if (!cursor) return ids
      }
    }
    for (const who of [anonymous(), as(people.member, setup.community)]) {
      const ids = await list(who)
      expect(ids).toEqual(expect.arrayContaining([published.id, closed.id]))
      expect(ids).not.toContain(draft.id)
      expectError(await api.get(`/api/call4papers/${draft.id}`, who), 404, CALL_NOT_FOUND)
      expectError(await api.get(`/api/call4papers/spaces/${setup.space.id}/calls/${draft.slug}`, who), 404)
      expectError(await api.get(`/api/call4papers/${draft.id}/tracks`, who), 404)
      expectError(await api.get(`/api/call4papers/${draft.id}/event-dates`, who), 404)
    }
    expect(await list(as(people.moderator, setup.community))).toEqual(expect.arrayContaining([draft.id, published.id]))
    await makeOwner(draft.id, people.callOwner)
    expect(await list(as(people.callOwner, setup.community))).toContain(draft.id)
    const asOwner = expectOk(await api.get(`/api/call4papers/${draft.id}`, as(people.callOwner, setup.community)))
    expect(asOwner.viewer).toEqual({ organiser: true, owner: true, reviewerTrackIds: [] })

    const detail = expectOk(await api.get(`/api/call4papers/${published.id}`, anonymous()), 200, "Chamada encontrada.")
    expect(detail).toMatchObject({ id: published.id, status: "published", viewer: { organiser: false, owner: false } })
    const bySlug = expectOk(
      await api.get(`/api/call4papers/spaces/${setup.space.id}/calls/${published.slug}`, anonymous())
    )
    expect(bySlug.id).toBe(published.id)
    const onlyClosed = expectOk(
      await api.get(`/api/call4papers/spaces/${setup.space.id}/calls?status=closed&limit=100`, anonymous())
    )
    expect(onlyClosed.every((call: { status: string }) => call.status === "closed")).toBe(true)
    expectInvalid(
      await api.get(`/api/call4papers/spaces/${setup.space.id}/calls?status=gone`, anonymous()),
      "status",
      "query"
    )
    expectInvalid(
      await api.get(`/api/call4papers/spaces/${setup.space.id}/calls?cursor=abc`, anonymous()),
      "cursor",
      "query"
    )
  })

  it("keyset pagination walks every call once", async () => {
    const space = await createSpace(api, setup, setup.section.id, { visibility: "public", module: "call4papers" })
    const created = []
    for (let i = 0; i < 3; i++) {
      created.push(await openCall(api, { ...setup, space: { ...setup.space, id: space.id } }))
    }
    const first = await api.get(`/api/call4papers/spaces/${space.id}/calls?limit=2`, owner())
    expect(expectOk(first)).toHaveLength(2)
    const second = await api.get(
      `/api/call4papers/spaces/${space.id}/calls?limit=2&cursor=${first.body.pagination.nextCursor}`,
      owner()
    )
    expect(expectOk(second)).toHaveLength(1)
    expect(second.body.pagination.nextCursor).toBeNull()
    const seen = [...first.body.data, ...second.body.data].map((call: { id: string }) => call.id)
    expect(seen).toEqual(created.map((call) => call.id).reverse())
  })

  it("the space's access rules apply: a private space is hidden from anonymous callers", async () => {
    const section = await createSection(api, setup, { visibility: "public" })
    const privateSpace = await createSpace(api, setup, section.id, { visibility: "private", module: "call4papers" })
    const call = await openCall(api, { ...setup, space: { ...setup.space, id: privateSpace.id } })
    expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, owner()))
    expect((await api.get(`/api/call4papers/${call.id}`, anonymous())).status).toBeGreaterThanOrEqual(403)
    expect((await api.get(`/api/call4papers/spaces/${privateSpace.id}/calls`, anonymous())).status)
      .toBeGreaterThanOrEqual(403)
    expectOk(await api.get(`/api/call4papers/${call.id}`, as(people.member, setup.community)))
  })

  it("another community's call is 404 everywhere; a malformed id is 400", async () => {
    const foreign = await publishedCall(api, other)
    const me = owner()
    expectError(await api.get(`/api/call4papers/${foreign.id}`, me), 404, CALL_NOT_FOUND)
    expectError(await api.get(`/api/call4papers/${foreign.id}`, anonymous()), 404)
    expectError(await api.put(`/api/call4papers/${foreign.id}`, { title: "X" }, me), 404)
    expectError(await api.del(`/api/call4papers/${foreign.id}`, me), 404)
    expectError(await api.post(`/api/call4papers/${foreign.id}/close`, undefined, me), 404)
    expectError(await api.patch(`/api/call4papers/${foreign.id}/status`, { status: "closed" }, me), 404)
    expectError(await api.get(`/api/call4papers/${foreign.id}/tracks`, me), 404)
    expectError(await api.post(`/api/call4papers/${foreign.id}/tracks`, { name: "X" }, me), 404)
    expectError(await api.get(`/api/call4papers/${foreign.id}/event-dates`, me), 404)
    expectError(await api.get(`/api/call4papers/${foreign.id}/owners`, me), 404)
    expectError(await api.get(`/api/call4papers/spaces/${other.space.id}/calls/${foreign.slug}`, me), 404)
    expectError(await api.get(`/api/call4papers/${unknownId()}`, me), 404)
    const bad = expectInvalid(await api.get(`/api/call4papers/not-a-uuid/tracks`, me), "id", "params")
    expect(bad.message).toBe("Valid call ID is required")
  })
})

describe("PUT and DELETE /api/call4papers/{id}", () => {
  it("organisers edit; dates in order; slug 409; member 403; a draft is 404 to a member", async () => {
    const call = await openCall(api, setup)
    const edited = expectOk(
      await api.put(`/api/call4papers/${call.id}`, {
        title: "Novo título",
        anonymousReviews: true,
        closesAt: "2031-01-01T00:00:00Z"
      }, owner()),
      200,
      "Chamada atualizada com sucesso."
    )
    expect(edited).toMatchObject({
      title: "Novo título",
      anonymousReviews: true,
      closesAt: "2031-01-01T00:00:00.000Z",
      slug: call.slug
    })
    expectInvalid(
      await api.put(`/api/call4papers/${call.id}`, { opensAt: "2031-06-01T00:00:00Z" }, owner()),
      "closesAt"
    )
    expectInvalid(await api.put(`/api/call4papers/${call.id}`, { status: "published" }, owner()), "status")
    expectInvalid(await api.put(`/api/call4papers/${call.id}`, { title: "" }, owner()), "title")
    const another = await openCall(api, setup)
    const taken = expectError(await api.put(`/api/call4papers/${call.id}`, { slug: another.slug }, owner()), 409)
    expect(taken.errors[0].param).toBe("slug")
    expectError(await api.put(`/api/call4papers/${call.id}`, { title: "X" }, as(people.member, setup.community)), 404)
    expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, owner()))
    expectError(
      await api.put(`/api/call4papers/${call.id}`, { title: "X" }, as(people.member, setup.community)),
      403,
      ORGANISER_REQUIRED
    )
    expectError(await api.del(`/api/call4papers/${call.id}`, as(people.member, setup.community)), 403)
  })

  it("soft delete from any state: then 404 everywhere, the row is kept", async () => {
    for (const state of ["draft", "published", "closed"]) {
      const call = await openCall(api, setup)
      if (state !== "draft") expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, owner()))
      if (state === "closed") expectOk(await api.post(`/api/call4papers/${call.id}/close`, undefined, owner()))
      const track = expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Trilha" }, owner()))
      const day = expectCreated(
        await api.post(`/api/call4papers/${call.id}/event-dates`, { date: "2030-05-01" }, owner())
      )
      expectOk(await api.del(`/api/call4papers/${call.id}`, owner()), 200, "Chamada removida com sucesso.")
      const me = owner()
      expectError(await api.get(`/api/call4papers/${call.id}`, me), 404, CALL_NOT_FOUND)
      expectError(await api.get(`/api/call4papers/${call.id}`, anonymous()), 404)
      expectError(await api.get(`/api/call4papers/spaces/${setup.space.id}/calls/${call.slug}`, me), 404)
      expectError(await api.put(`/api/call4papers/${call.id}`, { title: "X" }, me), 404)
      expectError(await api.del(`/api/call4papers/${call.id}`, me), 404)
      expectError(await api.post(`/api/call4papers/${call.id}/publish`, undefined, me), 404)
      expectError(await api.patch(`/api/call4papers/${call.id}/status`, { status: "published" }, me), 404)
      expectError(await api.get(`/api/call4papers/${call.id}/tracks`, me), 404)
      expectError(await api.put(`/api/call4papers/tracks/${track.id}`, { name: "Y" }, me), 404)
      expectError(await api.get(`/api/call4papers/tracks/${track.id}/reviewers`, me), 404)
      expectError(await api.get(`/api/call4papers/${call.id}/event-dates`, me), 404)
      expectError(await api.put(`/api/call4papers/event-dates/${day.id}`, { label: "Y" }, me), 404)
      expectError(await api.get(`/api/call4papers/${call.id}/owners`, me), 404)
      const list = expectOk(await api.get(`/api/call4papers/spaces/${setup.space.id}/calls?limit=100`, me))
      expect(list.map((row: { id: string }) => row.id)).not.toContain(call.id)
      const rows = await query(roda, (sql) => sql`SELECT deleted_at FROM call4papers_calls WHERE id = ${call.id}`)
      expect(rows[0]?.deletedAt).not.toBeNull()
    }
  })
})
