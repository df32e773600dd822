import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { as } from "../support/community"
import { contract, ok, rawInvalid, statusOf } from "../support/contract"
import { UUID } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { createSpace } from "../support/structure"
import { createEvent, type EventCommunity, eventCommunity, onlineEvent } from "./support"

// Contract calls through `typed`; input the contract's types cannot express raw through `api`.
const roda = startRoda()
const api = client(roda)
const typed = contract(roda)
afterAll(() => roda.dispose())

let setup: EventCommunity
let people: Record<"member" | "host", { token: string; profileId: string }>
beforeAll(async () => {
  setup = await eventCommunity(api, "Ataque Eventos")
  people = { member: await setup.addMember("member"), host: await setup.addMember("member", "Hugo Host") }
})
const owner = () => typed.as(setup.owner, setup.community)
const anonymous = () => typed.anonymous(setup.community)
const raw = () => as(setup.owner, setup.community)
const address = { street: "Rua A", number: "10", city: "São Paulo" }

describe("an event's id cannot be taken over by another event's slug", () => {
  it("a host who sets their slug to another event's id changes neither its detail nor its calendar", async () => {
    const target = await createEvent(typed, setup, { title: "Evento oficial" })
    // A plain member made host of an event (staff created it acting as them).
    const actingAsHost = typed.clientOf({
      token: setup.owner.token,
      communityId: setup.community.id,
      profileId: people.host.profileId
    })
    const hosted = (await ok(
      actingAsHost.events.create({ payload: onlineEvent(setup.space.id, { title: "Evento impostor" }) })
    )).data
    expect(hosted.id).toMatch(UUID)
    await ok(
      typed.as(people.host, setup.community).events.update({ path: { id: hosted.id }, payload: { slug: target.id } })
    )

    const byId = (await ok(typed.as(people.member, setup.community).events.detail({ path: { id: target.id } }))).data
    expect(byId).toMatchObject({ id: target.id, title: "Evento oficial" })
    const ics = await ok(anonymous().events.calendar({ path: { id: target.slug } }))
    expect(ics).toContain(`UID:${target.id}@roda\r\n`)
    expect(ics).toContain("SUMMARY:Evento oficial\r\n")
    // The hosted event is still found by its own id.
    expect((await ok(owner().events.detail({ path: { id: hosted.id } }))).data.title).toBe("Evento impostor")
  })

  it("a secret event whose slug is a public event's id does not leak through that event's calendar", async () => {
    const secret = await createSpace(api, setup, setup.section.id, { visibility: "secret", module: "events" })
    const open = await createEvent(typed, setup, { title: "Aberto" })
    await createEvent(typed, { ...setup, space: secret }, {
      title: "Reunião secreta",
      slug: open.id,
      type: "in_person",
      address,
      joinUrl: null
    })
    const ics = await ok(anonymous().events.calendar({ path: { id: open.slug } }))
    expect(ics).not.toContain("secreta")
    expect(ics).toContain("SUMMARY:Aberto\r\n")
  })
})

describe("PUT /api/events/{id} under concurrency", () => {
  it("two edits that each pass alone never leave an in-person event without an address", async () => {
    for (let round = 0; round < 8; round++) {
      const event = await createEvent(typed, setup)
      const path = { id: event.id }
      const [toInPerson, dropAddress] = await Promise.all([
        statusOf(
          owner().events.update({ path, payload: { type: "in_person", address, joinUrl: null }, withResponse: true })
        ),
        statusOf(owner().events.update({ path, payload: { address: null }, withResponse: true }))
      ])
      // Whichever runs first, the move to in person stands; dropping the address after it is refused.
      expect(toInPerson).toBe(200)
      expect([200, 400]).toContain(dropAddress)
      const stored = (await ok(owner().events.detail({ path }))).data
      expect(stored).toMatchObject({ type: "in_person", address })
    }
  })

  it("two edits of the times that each pass alone answer 400 for the second, never 500", async () => {
    for (let round = 0; round < 8; round++) {
      const event = await createEvent(typed, setup, {
        startTime: "2030-05-01T10:00:00Z",
        endTime: "2030-05-01T12:00:00Z"
      })
      const path = { id: event.id }
      const statuses = await Promise.all([
        statusOf(owner().events.update({ path, payload: { startTime: "2030-05-01T11:00:00Z" }, withResponse: true })),
        statusOf(owner().events.update({ path, payload: { endTime: "2030-05-01T10:30:00Z" }, withResponse: true }))
      ])
      expect(statuses.sort()).toEqual([200, 400])
      const stored = (await ok(owner().events.detail({ path }))).data
      expect(Date.parse(stored.startTime)).toBeLessThan(Date.parse(stored.endTime))
    }
  })
})

describe("dates and links are stored as sent, or refused", () => {
  // (raw: the contract's types refuse these)
  it("a day or hour the calendar does not have is 400 (param named), not moved to another date", async () => {
    for (const startTime of ["2030-02-30T10:00:00Z", "2030-04-31T10:00:00Z", "2030-05-01T24:00:00Z"]) {
      const reply = await api.post("/api/events", { ...onlineEvent(setup.space.id), startTime }, raw())
      rawInvalid(reply, "startTime")
    }
    const event = await createEvent(typed, setup)
    rawInvalid(await api.put(`/api/events/${event.id}`, { endTime: "2030-02-29T12:00:00Z" }, raw()), "endTime")
  })

  it("a join link with a control character is 400 (param joinUrl)", async () => {
    const reply = await api.post(
      "/api/events",
      { ...onlineEvent(setup.space.id), joinUrl: "https://meet.example.com/a\u0007b" },
      raw()
    )
    rawInvalid(reply, "joinUrl")
  })
})

describe("GET /api/events/{id}/calendar.ics", () => {
  it("no text sent by a host starts a line of its own (a lone CR is escaped too)", async () => {
    const event = await createEvent(typed, setup, {
      title: "Encontro\rURL:https://evil.example/",
      description: "Linha 1\rBEGIN:VALARM\r\nLinha 3\u0007",
      type: "in_person",
      address: { ...address, complement: "Sala 2\rATTENDEE:mailto:x@evil.example" },
      joinUrl: null
    })
    const ics = await ok(anonymous().events.calendar({ path: { id: event.id } }))
    // Every CR ends a line (CRLF), and no other control character is left.
    const controls = [...ics.replace(/\r\n/g, "")].filter((char) => char < " " && char !== "\t" || char === "\u007f")
    expect(controls).toEqual([])
    expect(ics).toContain("SUMMARY:Encontro\\nURL:https://evil.example/\r\n")
    expect(ics).toContain("DESCRIPTION:Linha 1\\nBEGIN:VALARM\\nLinha 3\r\n")
    expect(ics.split("\r\n").filter((line) => line.startsWith("URL:"))).toEqual([])
  })
})
