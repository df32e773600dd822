import { type Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { Roda } from "@roda/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CallCommunity, callCommunity, ORGANISER_REQUIRED } from "../../core/test/call4papers/calls-support"
import { as } from "../../core/test/support/community"
import { expectCreated, expectOk } from "../../core/test/support/envelope"
import { type Client as Api, client, startRoda } from "../../core/test/support/harness"
import { connectInMemory, errorOf } from "./support"

/**
 * The call-for-papers tools as an organiser's assistant uses them, each checked against its route over
 * HTTP: open and publish a call, its tracks, owners and reviewers, and the decision on a submission;
 * a member gets the routes' 403 and another community's call is not found.
 */
let roda: Roda
let api: Api
let setup: CallCommunity
let other: CallCommunity

const connect = (user: { token: string }, communityId: string) => connectInMemory(roda, user.token, communityId)

/** A tool's `data`, failing the test with its error when it answered one. */
const dataOf = async (mcp: Client, name: string, args: Record<string, unknown>) => {
  const result = await mcp.callTool({ name, arguments: args })
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy()
  return (result.structuredContent as { data: any }).data
}

beforeAll(async () => {
  roda = startRoda()
  api = client(roda)
  setup = await callCommunity(api, "MCP C4P")
  other = await callCommunity(api, "MCP C4P other")
})

afterAll(() => roda.dispose())

describe("the call-for-papers tools", () => {
  it("open, publish, tracks, owners and reviewers, as the routes answer them", async () => {
    const owner = as(setup.owner, setup.community)
    const mcp = await connect(setup.owner, setup.community.id)
    const call = await dataOf(mcp, "open_call_for_papers", { spaceId: setup.space.id, title: "Chamada via assistente" })
    expect(call).toMatchObject({ title: "Chamada via assistente", status: "draft" })
    expect(expectOk(await api.get(`/api/call4papers/${call.id}`, owner)).id).toBe(call.id)
    expect(await dataOf(mcp, "set_call_status", { id: call.id, status: "published" })).toMatchObject({
      status: "published"
    })

    const track = await dataOf(mcp, "create_call_track", { id: call.id, name: "Backend" })
    await dataOf(mcp, "update_call_track", { trackId: track.id, name: "Back-end" })
    const temporary = await dataOf(mcp, "create_call_track", { id: call.id, name: "Provisória" })
    await dataOf(mcp, "remove_call_track", { trackId: temporary.id })
    const tracks = await dataOf(mcp, "list_call_tracks", { id: call.id })
    expect(tracks.map((t: { name: string }) => t.name)).toEqual(["Back-end"])
    const overHttp = expectOk(await api.get(`/api/call4papers/${call.id}/tracks`, owner))
    expect(overHttp.map((t: { id: string }) => t.id)).toEqual([track.id])

    const carla = await setup.addMember("member", "Carla Co-Owner")
    const ownership = await dataOf(mcp, "invite_call_owner", { id: call.id, profileId: carla.profileId })
    expectOk(await api.post(`/api/call4papers/owners/${ownership.id}/accept`, undefined, as(carla, setup.community)))
    const owners = await dataOf(mcp, "list_call_owners", { id: call.id })
    expect(owners.find((o: { id: string }) => o.id === ownership.id)).toMatchObject({ status: "accepted" })
    await dataOf(mcp, "remove_call_owner", { ownerId: ownership.id })
    const ownersAfter = expectOk(await api.get(`/api/call4papers/${call.id}/owners`, owner))
    expect(ownersAfter.map((o: { id: string }) => o.id)).not.toContain(ownership.id)

    const rita = await setup.addMember("member", "Rita Reviewer")
    const reviewer = await dataOf(mcp, "invite_track_reviewer", { trackId: track.id, profileId: rita.profileId })
    const reviewers = await dataOf(mcp, "list_track_reviewers", { trackId: track.id })
    expect(reviewers.map((r: { id: string }) => r.id)).toEqual([reviewer.id])
    await dataOf(mcp, "remove_track_reviewer", { reviewerId: reviewer.id })
    expect(expectOk(await api.get(`/api/call4papers/tracks/${track.id}/reviewers`, owner))).toEqual([])
    await mcp.close()
  })

  it("decides on a submission once; a second decision is the route's 409", async () => {
    const owner = as(setup.owner, setup.community)
    const call = expectCreated(
      await api.post("/api/call4papers", { spaceId: setup.space.id, title: "Decisões" }, owner)
    )
    expectOk(await api.post(`/api/call4papers/${call.id}/publish`, undefined, owner))
    const track = expectCreated(await api.post(`/api/call4papers/${call.id}/tracks`, { name: "Geral" }, owner))
    const paula = await setup.addMember("member", "Paula Proposer")
    const proposal = expectCreated(
      await api.post(`/api/call4papers/${call.id}/submissions`, {
        title: "Effect na prática",
        abstract: "Serviços com Effect.",
        trackId: track.id
      }, as(paula, setup.community))
    )
    expectOk(
      await api.post(`/api/call4papers/submissions/${proposal.id}/submit`, undefined, as(paula, setup.community))
    )

    const mcp = await connect(setup.owner, setup.community.id)
    const decided = await dataOf(mcp, "decide_submission", { sid: proposal.id, decision: "accept", note: "Bem-vinda!" })
    expect(decided).toMatchObject({ id: proposal.id, status: "aceita" })
    expect(expectOk(await api.get(`/api/call4papers/submissions/${proposal.id}`, owner)).status).toBe("aceita")
    const again = await mcp.callTool({ name: "decide_submission", arguments: { sid: proposal.id, decision: "refuse" } })
    const http = await api.post(
      `/api/call4papers/submissions/${proposal.id}/decide`,
      { decision: "refuse" },
      owner
    )
    expect(http.status).toBe(409)
    expect(again.isError).toBe(true)
    expect(errorOf(again)).toMatchObject({ status: 409, message: http.body.message })
    await mcp.close()
  })

  it("answers a member the routes' 403, and another community's call 404", async () => {
    const call = expectCreated(
      await api.post(
        "/api/call4papers",
        { spaceId: other.space.id, title: "De outra comunidade" },
        as(other.owner, other.community)
      )
    )
    const mine = expectCreated(
      await api.post(
        "/api/call4papers",
        { spaceId: setup.space.id, title: "Só organizadores" },
        as(setup.owner, setup.community)
      )
    )
    expectOk(await api.post(`/api/call4papers/${mine.id}/publish`, undefined, as(setup.owner, setup.community)))
    const mia = await setup.addMember("member", "Mia Member")
    const member = await connect(mia, setup.community.id)
    const refused = await member.callTool({ name: "set_call_status", arguments: { id: mine.id, status: "closed" } })
    expect(errorOf(refused)).toMatchObject({ status: 403, message: ORGANISER_REQUIRED })
    const track = await member.callTool({ name: "create_call_track", arguments: { id: mine.id, name: "Minha" } })
    expect(errorOf(track)).toMatchObject({ status: 403, message: ORGANISER_REQUIRED })
    await member.close()

    const owner = await connect(setup.owner, setup.community.id)
    const elsewhere = await owner.callTool({ name: "list_call_owners", arguments: { id: call.id } })
    const http = await api.get(`/api/call4papers/${call.id}/owners`, as(setup.owner, setup.community))
    expect(http.status).toBe(404)
    expect(errorOf(elsewhere)).toMatchObject({ status: 404, message: http.body.message })
    const invalid = await owner.callTool({ name: "create_call_track", arguments: { id: mine.id, name: "" } })
    expect(errorOf(invalid)).toMatchObject({ status: 400, errors: [{ param: "name" }] })
    await owner.close()
  })
})
