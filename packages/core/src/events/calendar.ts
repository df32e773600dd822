import { utf8Bytes } from "../platform/bytes"
import type { EventRow } from "./Repo"
import { addressLine } from "./view"

/** `YYYYMMDDTHHMMSSZ`, the UTC form of an iCalendar DATE-TIME. */
const utc = (date: Date) => date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "")

/** A control character other than TAB. */
const isControl = (char: string) => {
  const code = char.charCodeAt(0)
  return (code < 0x20 && code !== 0x09) || code === 0x7f
}

/**
 * Escapes a TEXT value (RFC 5545 §3.3.11): every line break (a lone CR too) becomes `\n`, and other
 * control characters, which TEXT may not hold, are dropped, so no text starts a content line of its own.
 */
const escapeText = (value: string) =>
  [...value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r\n|\r|\n/g, "\\n")]
    .filter((char) => !isControl(char)).join("")

/** Folds a content line at 75 octets (RFC 5545 §3.1), never inside a UTF-8 character. */
const fold = (line: string) => {
  const parts: Array<string> = []
  let current = ""
  let octets = 0
  for (const char of line) {
    const size = utf8Bytes(char).length
    const limit = parts.length === 0 ? 75 : 74
    if (octets + size > limit) {
      parts.push(current)
      current = ""
      octets = 0
    }
    current += char
    octets += size
  }
  parts.push(current)
  return parts.join("\r\n ")
}

/**
 * The event as an iCalendar file with one VEVENT: UID, DTSTAMP (the event's last change), DTSTART
 * and DTEND in UTC, SUMMARY, DESCRIPTION, and LOCATION (the address, or "Online") with URL (the join
 * link, only when the caller may see it).
 */
export const icsOf = (event: EventRow, joinUrl: string | null, host: string) => {
  const location = event.type === "in_person" ? addressLine(event) : "Online"
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Roda//Events//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${event.id}@${host}`,
    `DTSTAMP:${utc(event.updatedAt)}`,
    `DTSTART:${utc(event.startTime)}`,
    `DTEND:${utc(event.endTime)}`,
    `SUMMARY:${escapeText(event.title)}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    ...(location !== "" ? [`LOCATION:${escapeText(location)}`] : []),
    ...(joinUrl ? [`URL:${joinUrl}`] : []),
    "END:VEVENT",
    "END:VCALENDAR"
  ]
  return lines.map(fold).join("\r\n") + "\r\n"
}
