import { notificationText } from "../messages"
import type { Cadence, DueMail } from "./MailRepo"

/** How many notifications a digest lists; the rest are counted. */
export const DIGEST_ITEMS = 20

const prefix = (row: DueMail) => row.communityName === null ? "" : `[${row.communityName}] `

const textOf = (row: DueMail, language: "pt" | "en") =>
  notificationText(row.kind, row.actorName, row.subjectTitle, language)

const footer = (unsubscribeUrl: string) =>
  `\n--\nPara não receber mais estes e-mails: ${unsubscribeUrl}\nTo stop these e-mails: ${unsubscribeUrl}\n`

/** One notification's e-mail (`instant`), in Portuguese and English. */
export const instantMail = (row: DueMail, unsubscribeUrl: string) => ({
  subject: `${prefix(row)}${textOf(row, "pt")} / ${textOf(row, "en")}`,
  text: `${textOf(row, "pt")}\n${textOf(row, "en")}\n${footer(unsubscribeUrl)}`
})

const titles: Record<Exclude<Cadence, "instant">, { readonly pt: string; readonly en: string }> = {
  daily: { pt: "Resumo do dia", en: "Daily digest" },
  weekly: { pt: "Resumo da semana", en: "Weekly digest" }
}

/** A digest: the member's notifications of the day or week, oldest first, at most `DIGEST_ITEMS`. */
export const digestMail = (
  cadence: Exclude<Cadence, "instant">,
  rows: ReadonlyArray<DueMail>,
  unsubscribeUrl: string
) => {
  const listed = rows.slice(0, DIGEST_ITEMS)
  const more = rows.length - listed.length
  const section = (language: "pt" | "en") =>
    [
      `${titles[cadence][language]}:`,
      ...listed.map((row) => `- ${textOf(row, language)}`),
      ...(more === 0 ? [] : [language === "pt" ? `… e mais ${more}.` : `… and ${more} more.`])
    ].join("\n")
  return {
    subject: `${prefix(rows[0]!)}${titles[cadence].pt}: ${rows.length} / ${titles[cadence].en}: ${rows.length}`,
    text: `${section("pt")}\n\n${section("en")}\n${footer(unsubscribeUrl)}`
  }
}
