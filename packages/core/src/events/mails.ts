import { escapeHtml } from "../domain/Html"
import { toBase64, utf8Bytes } from "../platform/bytes"
import type { Mail } from "../platform/Mailer"
import { icsOf } from "./calendar"
import type { EventRow } from "./Repo"
import { groupedCode, qrPng } from "./ticket"
import { addressLine } from "./view"

/** The e-mails participants get about an event (Portuguese, as the platform's other e-mails). */

export interface MailRecipient {
  readonly profileId: string
  readonly fullName: string
  readonly email: string
}

/** The `calendar.ics` route's UID host, so a calendar that imported either keeps one event. */
const CALENDAR_HOST = "roda"
const QR_CONTENT_ID = "ticket-qr@roda"

const when = (event: EventRow) => {
  const format = new Intl.DateTimeFormat("pt-BR", {
    dateStyle: "full",
    timeStyle: "short",
    timeZone: event.timezone ?? "UTC"
  })
  return `${format.format(event.startTime)} a ${format.format(event.endTime)} (${event.timezone ?? "UTC"})`
}

const where = (event: EventRow) =>
  event.type === "in_person" ? addressLine(event) : `Online${event.joinUrl ? `: ${event.joinUrl}` : ""}`

const calendarFile = (event: EventRow) => ({
  filename: `${event.slug}.ics`,
  contentType: "text/calendar; charset=utf-8; method=PUBLISH",
  content: toBase64(utf8Bytes(icsOf(event, event.joinUrl, CALENDAR_HOST)))
})

const base = (event: EventRow, to: MailRecipient, kind: string) => ({
  to: to.email,
  communityId: event.communityId,
  kind
})

/** Going: the ticket's code, its QR code (inline PNG) and the event as an `.ics` file. */
export const ticketMail = (event: EventRow, to: MailRecipient, code: string): Mail => {
  const lines = [
    `Olá, ${to.fullName}!`,
    "",
    `Sua presença em "${event.title}" está confirmada.`,
    `Quando: ${when(event)}`,
    `Onde: ${where(event)}`,
    "",
    `Código do seu ingresso: ${groupedCode(code)}`,
    "Apresente este código (ou o QR code) na entrada para fazer o check-in.",
    "O evento segue anexo (.ics) para a sua agenda."
  ]
  const html = [
    `<p>Olá, ${escapeHtml(to.fullName)}!</p>`,
    `<p>Sua presença em <strong>${escapeHtml(event.title)}</strong> está confirmada.</p>`,
    `<p>Quando: ${escapeHtml(when(event))}<br>Onde: ${escapeHtml(where(event))}</p>`,
    `<p>Código do seu ingresso: <strong>${groupedCode(code)}</strong></p>`,
    `<p><img src="cid:${QR_CONTENT_ID}" alt="QR code do ingresso ${groupedCode(code)}" width="240" height="240"></p>`,
    "<p>Apresente este código (ou o QR code) na entrada para fazer o check-in.</p>"
  ].join("\n")
  return {
    ...base(event, to, "event-ticket"),
    subject: `Presença confirmada: ${event.title}`,
    text: lines.join("\n"),
    html,
    attachments: [
      { filename: "ingresso.png", contentType: "image/png", content: toBase64(qrPng(code)), contentId: QR_CONTENT_ID },
      calendarFile(event)
    ]
  }
}

export type ReminderLead = "24h" | "1h"

export const reminderMail = (event: EventRow, to: MailRecipient, lead: ReminderLead, code: string): Mail => ({
  ...base(event, to, "event-reminder"),
  subject: `Lembrete: ${event.title} começa ${lead === "24h" ? "em 24 horas" : "em 1 hora"}`,
  text: [
    `Olá, ${to.fullName}!`,
    "",
    `"${event.title}" começa ${lead === "24h" ? "amanhã" : "daqui a 1 hora"}.`,
    `Quando: ${when(event)}`,
    `Onde: ${where(event)}`,
    `Código do seu ingresso: ${groupedCode(code)}`
  ].join("\n")
})

/** What changed in an event that its participants must hear about. */
export interface EventChange {
  readonly time: boolean
  readonly place: boolean
}

export const changeOf = (before: EventRow, after: EventRow): EventChange => ({
  time: before.startTime.getTime() !== after.startTime.getTime() ||
    before.endTime.getTime() !== after.endTime.getTime(),
  place: before.type !== after.type || before.joinUrl !== after.joinUrl || addressLine(before) !== addressLine(after)
})

export const changedMail = (event: EventRow, to: MailRecipient, change: EventChange): Mail => ({
  ...base(event, to, "event-changed"),
  subject: `Evento alterado: ${event.title}`,
  text: [
    `Olá, ${to.fullName}!`,
    "",
    `"${event.title}" mudou de ${change.time && change.place ? "horário e local" : change.time ? "horário" : "local"}.`,
    `Quando: ${when(event)}`,
    `Onde: ${where(event)}`,
    "O evento atualizado segue anexo (.ics)."
  ].join("\n"),
  attachments: [calendarFile(event)]
})

export const canceledMail = (event: EventRow, to: MailRecipient): Mail => ({
  ...base(event, to, "event-canceled"),
  subject: `Evento cancelado: ${event.title}`,
  text: [
    `Olá, ${to.fullName}!`,
    "",
    `"${event.title}", marcado para ${when(event)}, foi cancelado.`
  ].join("\n")
})
