import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { apiGroup } from "../../http/engine/apiGroup"
import { requestLanguage } from "../../http/Reply"
import { Unsubscribe } from "./Unsubscribe"

const html = (body: string) =>
  HttpServerResponse.text(body, { contentType: "text/html; charset=utf-8", headers: { "cache-control": "no-store" } })

export const NotificationUnsubscribeHttp = apiGroup(
  RodaApi,
  "notificationUnsubscribe",
  (handlers) =>
    Effect.gen(function*() {
      const unsubscribe = yield* Unsubscribe
      return handlers
        .handle("page", ({ urlParams }) =>
          Effect.flatMap(requestLanguage, (language) =>
            Effect.map(unsubscribe.ask(urlParams.token, language), html)))
        .handle("unsubscribe", ({ urlParams }) =>
          Effect.flatMap(requestLanguage, (language) =>
            Effect.map(unsubscribe.unsubscribe(urlParams.token, language), html)))
    })
)
