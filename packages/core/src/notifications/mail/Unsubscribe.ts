import { Clock, Effect, Redacted } from "effect"
import { invalidField } from "../../domain/AppError"
import { escapeHtml } from "../../domain/Html"
import type { Language } from "../../domain/Text"
import { Options } from "../../platform/Options"
import { NotificationMessages as M } from "../messages"
import { NotificationMailRepo } from "./MailRepo"
import { unsubscribeKey, verifyUnsubscribe } from "./unsubscribeToken"

const words = {
  pt: {
    title: "Cancelar e-mails",
    ask: "Deixar de receber por e-mail estas notificações desta comunidade?",
    button: "Não quero mais estes e-mails",
    done: "Pronto: você não receberá mais estes e-mails. Você pode mudar isso nas preferências de notificação."
  },
  en: {
    title: "Unsubscribe",
    ask: "Stop getting these notifications of this community by e-mail?",
    button: "Stop these e-mails",
    done: "Done: you will no longer get these e-mails. You can change this in your notification preferences."
  }
}

const page = (language: Language, body: string) =>
  `<!doctype html>
<html lang="${language === "pt" ? "pt-BR" : "en"}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(words[language].title)}</title></head>
<body style="font-family: system-ui, sans-serif; max-width: 32rem; margin: 3rem auto; padding: 0 1rem">
<h1>${escapeHtml(words[language].title)}</h1>
${body}
</body></html>`

/** RFC 8058 one-click unsubscribe: the page that asks, and the post that turns the e-mail off. */
export class Unsubscribe extends Effect.Service<Unsubscribe>()("@roda/core/NotificationUnsubscribe", {
  effect: Effect.gen(function*() {
    const repo = yield* NotificationMailRepo
    const options = yield* Options
    const key = unsubscribeKey(Redacted.value(options.jwtSecret))

    const verified = (token: string) => {
      const found = verifyUnsubscribe(key, token)
      return found === undefined
        ? Effect.fail(invalidField("token", M.unsubscribeTokenInvalid, "query"))
        : Effect.succeed(found)
    }

    const ask = (token: string, language: Language) =>
      Effect.map(verified(token), () =>
        page(
          language,
          `<p>${escapeHtml(words[language].ask)}</p>
<form method="post" action="?token=${escapeHtml(encodeURIComponent(token))}">
<button type="submit">${escapeHtml(words[language].button)}</button></form>`
        ))

    const unsubscribe = (token: string, language: Language) =>
      Effect.gen(function*() {
        const what = yield* verified(token)
        const at = new Date(yield* Clock.currentTimeMillis)
        yield* repo.turnOffEmail(what.communityId, what.profileId, what.kinds, at)
        return page(language, `<p>${escapeHtml(words[language].done)}</p>`)
      })

    return { ask, unsubscribe }
  }),
  dependencies: [NotificationMailRepo.Default]
}) {}
