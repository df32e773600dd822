import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { expectCreated, expectError, expectInvalid, expectOk, unknownId } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import {
  type CallCommunity,
  callCommunity,
  openCall,
  ORGANISER_REQUIRED,
  publishedCall,
  TRACK_NOT_FOUND
} from "./calls-support"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

type Person = { token: string; profileId: string }
let setup: CallCommunity
let other: CallCommunity
let people: Record<"moderator" | "member" | "callOwner", Person>
beforeAll(async () => {
  setup = await callCommunity(api, "Trilhas")
  other = await callCommunity(api, "Outra")
  people = {
    moderator: await setup.addMember("moderator"),
    member: await setup.addMember("member"),
    callOwner: await setup.addMember("member", "Otto Owner")
  }
})
const owner = () => as(setup.owner, setup.community)
const anonymous = () => ({ community: setup.community.id })

describe("tracks", () => {
  it("organisers create, edit and remove; the list is public, by position", async () => {
    const call = await publishedCall(api, setup)
    const first = expectCreated(
      await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Frontend", color: "#112233" }, owner()),
      "Trilha criada com sucesso."
    )
    expect(first).toMatchObject({ callId: call.id, name: "Frontend", color: "#112233", position: 1, description: null })
    const second = expectCreated(
      await api.post(
        `/api/call4papers/${call.id}/tracks`,
        { name: "Backend", description: "APIs" },
        as(people.moderator, setup.community)
      )
    )
    expect(second.position).toBe(2)
    const listed = expectOk(
      await api.get(`/api/call4papers/${call.id}/tracks`, anonymous()),
      200,
      "Trilhas encontradas."
    )
    expect(listed.map((track: { name: string }) => track.name)).toEqual(["Frontend", "Backend"])

    const edited = expectOk(
      await api.put(`/api/call4papers/tracks/${second.id}`, { position: 0 + 1, name: "Back-end" }, owner()),
      200,
      "Trilha atualizada com sucesso."
    )
    expect(edited).toMatchObject({ name: "Back-end", position: 1, description: "APIs" })
    const paged = await api.get(`/api/call4papers/${call.id}/tracks?limit=1`, anonymous())
    expect(expectOk(paged)).toHaveLength(1)
    const next = await api.get(
      `/api/call4papers/${call.id}/tracks?limit=1&cursor=${paged.body.pagination.nextCursor}`,
      anonymous()
    )
    expect(expectOk(next)).toHaveLength(1)
    expect(next.body.data[0].id).not.toBe(paged.body.data[0].id)

    expectOk(await api.del(`/api/call4papers/tracks/${first.id}`, owner()), 200, "Trilha removida com sucesso.")
    const after = expectOk(await api.get(`/api/call4papers/${call.id}/tracks`, anonymous()))
    expect(after.map((track: { id: string }) => track.id)).toEqual([second.id])
    expectError(await api.put(`/api/call4papers/tracks/${first.id}`, { name: "X" }, owner()), 404, TRACK_NOT_FOUND)
    expectError(await api.del(`/api/call4papers/tracks/${first.id}`, owner()), 404)
    // the name of a removed track is free again
    expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Frontend" }, owner()))
  })

  it("400 for bad input, 409 for a name taken in the call (case-insensitive)", async () => {
    const call = await openCall(api, setup)
    expectInvalid(await api.post(`/api/call4papers/${call.id}/tracks`, {}, owner()), "name")
    expectInvalid(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "  " }, owner()), "name")
    expectInvalid(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "A", color: "red" }, owner()), "color")
    expectInvalid(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "A", position: 0 }, owner()), "position")
    expectInvalid(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "A", nope: 1 }, owner()), "nope")
    const track = expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Dados" }, owner()))
    const taken = expectError(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "DADOS" }, owner()), 409)
    expect(taken.errors[0].param).toBe("name")
    const other = expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "IA" }, owner()))
    expectError(await api.put(`/api/call4papers/tracks/${other.id}`, { name: "dados" }, owner()), 409)
    expectInvalid(await api.put(`/api/call4papers/tracks/${track.id}`, { name: "" }, owner()), "name")
    const bad = expectInvalid(
      await api.put(`/api/call4papers/tracks/not-a-uuid`, { name: "X" }, owner()),
      "trackId",
      "params"
    )
    expect(bad.message).toBe("Valid track ID is required")
    expectError(await api.put(`/api/call4papers/tracks/${unknownId()}`, { name: "X" }, owner()), 404, TRACK_NOT_FOUND)
  })

  it("roles: member 403 on a published call, 404 on a draft; anonymous 401; an accepted owner manages", async () => {
    const call = await publishedCall(api, setup)
    const track = expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Geral" }, owner()))
    const member = as(people.member, setup.community)
    expectError(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "X" }, member), 403, ORGANISER_REQUIRED)
    expectError(await api.put(`/api/call4papers/tracks/${track.id}`, { name: "X" }, member), 403, ORGANISER_REQUIRED)
    expectError(await api.del(`/api/call4papers/tracks/${track.id}`, member), 403)
    expectError(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "X" }, anonymous()), 401)
    expectOk(await api.get(`/api/call4papers/${call.id}/tracks`, member))

    const draft = await openCall(api, setup)
    const draftTrack = expectCreated(await api.post(`/api/call4papers/${draft.id}/tracks`, { name: "Geral" }, owner()))
    expectError(await api.post(`/api/call4papers/${draft.id}/tracks`, { name: "X" }, member), 404)
    expectError(await api.put(`/api/call4papers/tracks/${draftTrack.id}`, { name: "X" }, member), 404, TRACK_NOT_FOUND)

    const invited = expectCreated(
      await api.post(`/api/call4papers/${draft.id}/owners`, { profileId: people.callOwner.profileId }, owner())
    )
    const callOwner = as(people.callOwner, setup.community)
    // pending owners have no rights yet
    expectError(await api.post(`/api/call4papers/${draft.id}/tracks`, { name: "X" }, callOwner), 404)
    expectOk(await api.post(`/api/call4papers/owners/${invited.id}/accept`, undefined, callOwner))
    expectCreated(await api.post(`/api/call4papers/${draft.id}/tracks`, { name: "Do dono" }, callOwner))
    expectOk(await api.put(`/api/call4papers/tracks/${draftTrack.id}`, { name: "Renomeada" }, callOwner))
    // owner of this call only: no rights on another call
    expectError(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "X" }, callOwner), 403)
  })

  it("another community's track is 404", async () => {
    const foreign = await publishedCall(api, other)
    const track = expectCreated(
      await api.post(`/api/call4papers/${foreign.id}/tracks`, { name: "Fora" }, as(other.owner, other.community))
    )
    expectError(await api.put(`/api/call4papers/tracks/${track.id}`, { name: "X" }, owner()), 404, TRACK_NOT_FOUND)
    expectError(await api.del(`/api/call4papers/tracks/${track.id}`, owner()), 404)
    expectError(await api.get(`/api/call4papers/tracks/${track.id}/reviewers`, owner()), 404)
    expectError(await api.get(`/api/call4papers/${foreign.id}/tracks`, anonymous()), 404)
  })
})

describe("event dates", () => {
  it("organisers add, edit and remove days; the list is public, in date order", async () => {
    const call = await publishedCall(api, setup)
    const second = expectCreated(
      await api.post(`/api/call4papers/${call.id}/event-dates`, { date: "2030-05-02", label: "Dia 2" }, owner()),
      "Data adicionada com sucesso."
    )
    const first = expectCreated(
      await api.post(
        `/api/call4papers/${call.id}/event-dates`,
        { date: "2030-05-01", label: "Dia 1", startTime: "09:00", endTime: "18:00" },
        owner()
      )
    )
    expect(first).toMatchObject({
      callId: call.id,
      date: "2030-05-01",
      label: "Dia 1",
      startTime: "09:00",
      endTime: "18:00"
    })
    const listed = expectOk(
      await api.get(`/api/call4papers/${call.id}/event-dates`, anonymous()),
      200,
      "Datas do evento encontradas."
    )
    expect(listed.map((day: { id: string }) => day.id)).toEqual([first.id, second.id])
    const paged = await api.get(`/api/call4papers/${call.id}/event-dates?limit=1`, anonymous())
    const rest = await api.get(
      `/api/call4papers/${call.id}/event-dates?limit=1&cursor=${paged.body.pagination.nextCursor}`,
      anonymous()
    )
    expect(expectOk(rest).map((day: { id: string }) => day.id)).toEqual([second.id])

    const edited = expectOk(
      await api.put(`/api/call4papers/event-dates/${second.id}`, { date: "2030-05-03", startTime: "10:00" }, owner()),
      200,
      "Data atualizada com sucesso."
    )
    expect(edited).toMatchObject({ date: "2030-05-03", label: "Dia 2", startTime: "10:00", endTime: null })
    expectOk(await api.del(`/api/call4papers/event-dates/${first.id}`, owner()), 200, "Data removida com sucesso.")
    expect(expectOk(await api.get(`/api/call4papers/${call.id}/event-dates`, anonymous()))).toHaveLength(1)
    expectError(await api.put(`/api/call4papers/event-dates/${first.id}`, { label: "X" }, owner()), 404)
  })

  it("400 for bad dates and times out of order; 409 for a day already listed", async () => {
    const call = await openCall(api, setup)
    const path = `/api/call4papers/${call.id}/event-dates`
    expectInvalid(await api.post(path, {}, owner()), "date")
    expectInvalid(await api.post(path, { date: "2030-02-30" }, owner()), "date")
    expectInvalid(await api.post(path, { date: "01/05/2030" }, owner()), "date")
    expectInvalid(await api.post(path, { date: "2030-05-01", startTime: "25:00" }, owner()), "startTime")
    const order = expectInvalid(
      await api.post(path, { date: "2030-05-01", startTime: "18:00", endTime: "09:00" }, owner()),
      "endTime"
    )
    expect(order.message).toBe("O início (startTime) deve ser anterior ao fim (endTime).")
    expectInvalid(
      await api.post(path, { date: "2030-05-01", startTime: "09:00", endTime: "09:00" }, owner()),
      "endTime"
    )
    const day = expectCreated(await api.post(path, { date: "2030-05-01", startTime: "09:00" }, owner()))
    const taken = expectError(await api.post(path, { date: "2030-05-01" }, owner()), 409)
    expect(taken.errors[0].param).toBe("date")
    // the edit obeys the same rules, merged with what is stored
    expectInvalid(await api.put(`/api/call4papers/event-dates/${day.id}`, { endTime: "08:00" }, owner()), "endTime")
    const next = expectCreated(await api.post(path, { date: "2030-05-02" }, owner()))
    expectError(await api.put(`/api/call4papers/event-dates/${next.id}`, { date: "2030-05-01" }, owner()), 409)
    expectInvalid(await api.put(`/api/call4papers/event-dates/nope`, { label: "X" }, owner()), "dateId", "params")
  })

  it("roles and communities: member 403, anonymous 401, another community 404", async () => {
    const call = await publishedCall(api, setup)
    const day = expectCreated(
      await api.post(`/api/call4papers/${call.id}/event-dates`, { date: "2030-06-01" }, owner())
    )
    const member = as(people.member, setup.community)
    expectError(
      await api.post(`/api/call4papers/${call.id}/event-dates`, { date: "2030-06-02" }, member),
      403,
      ORGANISER_REQUIRED
    )
    expectError(await api.put(`/api/call4papers/event-dates/${day.id}`, { label: "X" }, member), 403)
    expectError(await api.del(`/api/call4papers/event-dates/${day.id}`, member), 403)
    expectError(await api.post(`/api/call4papers/${call.id}/event-dates`, { date: "2030-06-02" }, anonymous()), 401)
    expectOk(await api.get(`/api/call4papers/${call.id}/event-dates`, member))
    expectError(
      await api.put(`/api/call4papers/event-dates/${day.id}`, { label: "X" }, as(other.owner, other.community)),
      404
    )
    expectError(await api.del(`/api/call4papers/event-dates/${day.id}`, as(other.owner, other.community)), 404)
  })
})
