import { Effect } from "effect"
import { inflateSync } from "node:zlib"
import QRCode from "qrcode"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSmtp, textOf } from "../../../../testing/smtp"
import type { Roda } from "../../src/index"
import { Jobs } from "../../src/platform/Jobs"
import { controlledClock, runJobs } from "../commerce/subscriptions-support"
import { as } from "../support/community"
import { expectOk } from "../support/envelope"
import { createEvent, type EventCommunity, eventCommunity } from "../support/events"
import { type Client, client, startRoda } from "../support/harness"
import { query } from "../support/sql"

// Time is the test's: reminders are jobs due 24 h and 1 h before the start, run with `runJobs`.
const HOUR = 3_600_000
const START = Date.UTC(2030, 4, 1, 19, 0, 0) // the events' default start (support/events.ts)
const time = controlledClock(Date.UTC(2030, 3, 28, 12, 0, 0))
let smtp: Awaited<ReturnType<typeof startSmtp>>
let roda: Roda
let api: Client

type Person = { token: string; profileId: string; email: string }
let setup: EventCommunity
let people: Array<Person>
beforeAll(async () => {
  smtp = await startSmtp()
  roda = startRoda({ runJobs: false, smtpUrl: smtp.url }, { clock: time.clock })
  api = client(roda)
  setup = await eventCommunity(api, "Avisos")
  people = await Promise.all(Array.from({ length: 4 }, (_, i) => setup.addMember("member", `Pessoa ${i}`)))
}, 120_000)
afterAll(async () => {
  await roda.dispose()
  await smtp.close()
})

interface Attachment {
  readonly filename: string
  readonly contentType: string
  readonly content: string
  readonly contentId?: string
}
interface Sent {
  readonly kind: string
  readonly subject: string
  readonly body: string
  readonly html: string | null
  readonly attachments: ReadonlyArray<Attachment> | null
}

const mailsOf = async (person: Person, kind: string) =>
  (await query<Sent>(
    roda,
    (sql) =>
      sql`SELECT kind, subject, body, html, attachments FROM outbox
        WHERE lower(recipient) = lower(${person.email}) AND kind = ${kind} ORDER BY created_at, id`
  )).map((mail) => ({
    ...mail,
    attachments: typeof mail.attachments === "string" ? JSON.parse(mail.attachments) : mail.attachments
  })) as Array<Sent>

const participate = async (eventId: string, person: Person) =>
  expectOk(await api.post(`/api/events/${eventId}/participate`, undefined, as(person, setup.community)))
const owner = () => as(setup.owner, setup.community)
const ticketOf = async (eventId: string, profileId: string) =>
  (await query<{ ticketCode: string }>(
    roda,
    (sql) => sql`SELECT ticket_code FROM event_participants WHERE event_id = ${eventId} AND profile_id = ${profileId}`
  ))[0]!.ticketCode

/** The pixels of a grayscale 1-bit PNG (IHDR, IDAT chunks, filter 0 rows), as rows of booleans (dark). */
const pixelsOf = (png: Uint8Array) => {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  let offset = 8
  let width = 0
  const data: Array<Uint8Array> = []
  while (offset < png.length) {
    const length = view.getUint32(offset)
    const type = new TextDecoder().decode(png.subarray(offset + 4, offset + 8))
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (type === "IHDR") {
      width = view.getUint32(offset + 8)
      expect([body[8], body[9]]).toEqual([1, 0]) // bit depth 1, grayscale
    }
    if (type === "IDAT") data.push(body)
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(data))
  const rowBytes = Math.ceil(width / 8) + 1
  return Array.from({ length: raw.length / rowBytes }, (_, y) => {
    expect(raw[y * rowBytes]).toBe(0)
    return Array.from({ length: width }, (_, x) => ((raw[y * rowBytes + 1 + (x >> 3)]! >> (7 - (x & 7))) & 1) === 0)
  })
}

describe("the ticket e-mail", () => {
  it("goes to whoever becomes going: the code in the text, its QR as an inline PNG, the .ics attached", async () => {
    const event = await createEvent(api, setup, { title: "Oficina de Cerâmica" })
    await participate(event.id, people[0]!)
    const code = await ticketOf(event.id, people[0]!.profileId)
    const [mail, ...more] = await mailsOf(people[0]!, "event-ticket")
    expect(more).toHaveLength(0)
    expect(mail!.subject).toBe("Presença confirmada: Oficina de Cerâmica")
    const grouped = code.replace(/(.{4})(?=.)/g, "$1-")
    expect(mail!.body).toContain(`Código do seu ingresso: ${grouped}`)
    expect(mail!.html).toContain("src=\"cid:ticket-qr@roda\"")
    const [qr, ics] = mail!.attachments!
    expect(qr).toMatchObject({ filename: "ingresso.png", contentType: "image/png", contentId: "ticket-qr@roda" })
    // the image is the QR code of the ticket's code, module for module
    const pixels = pixelsOf(Buffer.from(qr!.content, "base64"))
    const expected = QRCode.create(code, { errorCorrectionLevel: "M" }).modules
    const scale = pixels.length / (expected.size + 8)
    for (let row = 0; row < expected.size; row++) {
      for (let column = 0; column < expected.size; column++) {
        const y = (row + 4) * scale + Math.floor(scale / 2)
        const x = (column + 4) * scale + Math.floor(scale / 2)
        expect(pixels[y]![x]).toBe(expected.get(row, column) === 1)
      }
    }
    expect(ics).toMatchObject({ filename: `${event.slug}.ics`, contentType: expect.stringMatching(/^text\/calendar/) })
    const calendar = Buffer.from(ics!.content, "base64").toString("utf8")
    expect(calendar.startsWith("BEGIN:VCALENDAR\r\n")).toBe(true)
    expect(calendar).toContain(`UID:${event.id}@roda\r\n`)
    expect(calendar).toContain("DTSTART:20300501T190000Z\r\n")
    expect(calendar).toContain("URL:https://meet.example.com/abc\r\n")
    expect(calendar.trimEnd().endsWith("END:VCALENDAR")).toBe(true)
    // the code checks the person in
    expectOk(await api.post(`/api/events/${event.id}/check-in`, { code: grouped }, owner()))
  })

  it("is delivered over SMTP with the PNG inline (Content-ID) and the calendar attached", async () => {
    const event = await createEvent(api, setup, { title: "Entrega SMTP" })
    await participate(event.id, people[1]!)
    const code = await ticketOf(event.id, people[1]!.profileId)
    const received = await smtp.mailTo(people[1]!.email, /Entrega SMTP/)
    const text = textOf(received)
    expect(text).toContain(code.replace(/(.{4})(?=.)/g, "$1-"))
    expect(text).toMatch(/Content-Type: image\/png/)
    expect(text).toMatch(/Content-ID: <ticket-qr@roda>/)
    expect(text).toMatch(/Content-Type: text\/calendar/)
    expect(text).toMatch(/multipart\/related|multipart\/mixed/)
  })

  it("goes to someone promoted from the waitlist, not to someone waitlisted", async () => {
    const event = await createEvent(api, setup, { capacity: 1, title: "Lotado" })
    await participate(event.id, people[2]!)
    await participate(event.id, people[3]!) // waitlisted
    const before = (await mailsOf(people[3]!, "event-ticket")).length
    await participate(event.id, people[2]!) // leaves: people[3] is promoted
    const after = await mailsOf(people[3]!, "event-ticket")
    expect(after).toHaveLength(before + 1)
    expect(after.at(-1)!.subject).toBe("Presença confirmada: Lotado")
  })
})

describe("reminders and changes", () => {
  const remindersOf = async (person: Person, title: string) =>
    (await mailsOf(person, "event-reminder")).filter((mail) => mail.subject.includes(title))

  it("e-mails those going 24 h and 1 h before the start, once each, even when a job runs twice", async () => {
    const event = await createEvent(api, setup, { title: "Lembrete A" })
    await participate(event.id, people[0]!)
    await participate(event.id, people[1]!)
    await participate(event.id, people[1]!) // cancelled: no reminder
    time.set(START - 24 * HOUR - 1000)
    await runJobs(roda)
    expect(await remindersOf(people[0]!, "Lembrete A")).toHaveLength(0)
    time.set(START - 24 * HOUR + 1000)
    await runJobs(roda)
    const day = await remindersOf(people[0]!, "Lembrete A")
    expect(day.map((mail) => mail.subject)).toEqual(["Lembrete: Lembrete A começa em 24 horas"])
    expect(day[0]!.body).toContain((await ticketOf(event.id, people[0]!.profileId)).slice(0, 4))
    // the same reminder run again (a job retried after a crash) sends nothing
    await roda.runtime.runPromise(Effect.flatMap(Jobs, (jobs) =>
      jobs.enqueue({
        kind: "events.reminder",
        key: `again:${event.id}`,
        payload: {
          communityId: setup.community.id,
          eventId: event.id,
          lead: "24h",
          startTime: new Date(START).toISOString()
        }
      })))
    await runJobs(roda)
    expect(await remindersOf(people[0]!, "Lembrete A")).toHaveLength(1)
    time.set(START - HOUR + 1000)
    await runJobs(roda)
    expect((await remindersOf(people[0]!, "Lembrete A")).map((mail) => mail.subject)).toEqual([
      "Lembrete: Lembrete A começa em 24 horas",
      "Lembrete: Lembrete A começa em 1 hora"
    ])
    expect(await remindersOf(people[1]!, "Lembrete A")).toHaveLength(0)
    time.set(Date.UTC(2030, 3, 28, 12, 0, 0))
  })

  it("a new time e-mails those going with the new .ics and moves the reminders; a title change e-mails nobody", async () => {
    const event = await createEvent(api, setup, { title: "Remarcado" })
    await participate(event.id, people[2]!)
    expectOk(await api.put(`/api/events/${event.id}`, { title: "Remarcado!" }, owner()))
    expect(await mailsOf(people[2]!, "event-changed")).toHaveLength(0)
    const later = START + 2 * 24 * HOUR
    expectOk(
      await api.put(
        `/api/events/${event.id}`,
        { startTime: new Date(later).toISOString(), endTime: new Date(later + 2 * HOUR).toISOString() },
        owner()
      )
    )
    const [changed] = await mailsOf(people[2]!, "event-changed")
    expect(changed!.subject).toBe("Evento alterado: Remarcado!")
    expect(changed!.body).toContain("mudou de horário")
    expect(Buffer.from(changed!.attachments![0]!.content, "base64").toString("utf8")).toContain(
      "DTSTART:20300503T190000Z"
    )
    time.set(START - 24 * HOUR + 1000)
    await runJobs(roda)
    expect(await remindersOf(people[2]!, "Remarcado")).toHaveLength(0)
    time.set(later - 24 * HOUR + 1000)
    await runJobs(roda)
    expect(await remindersOf(people[2]!, "Remarcado")).toHaveLength(1)
    time.set(Date.UTC(2030, 3, 28, 12, 0, 0))
  })

  it("a new place (join link) e-mails those going; removing the event e-mails them and drops the reminders", async () => {
    const event = await createEvent(api, setup, { title: "Cancelado" })
    await participate(event.id, people[3]!)
    expectOk(await api.put(`/api/events/${event.id}`, { joinUrl: "https://meet.example.com/new" }, owner()))
    const [moved] = await mailsOf(people[3]!, "event-changed")
    expect(moved!.body).toContain("mudou de local")
    expect(moved!.body).toContain("https://meet.example.com/new")
    expectOk(await api.del(`/api/events/${event.id}`, owner()))
    const [canceled] = await mailsOf(people[3]!, "event-canceled")
    expect(canceled!.subject).toBe("Evento cancelado: Cancelado")
    time.set(START - HOUR + 1000)
    await runJobs(roda)
    expect(await remindersOf(people[3]!, "Cancelado")).toHaveLength(0)
    time.set(Date.UTC(2030, 3, 28, 12, 0, 0))
  })
})
