import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentMember } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { ok, page, requestLanguage } from "../http/Reply"
import { NotificationMessages as M } from "./messages"
import { Notifications } from "./Notifications"
import { NotificationStream } from "./NotificationStream"

export const NotificationsHttp = apiGroup(
  RodaApi,
  "notifications",
  (handlers) =>
    Effect.gen(function*() {
      const notifications = yield* Notifications
      const streams = yield* NotificationStream
      const as = <A, E, R>(f: (member: Effect.Effect.Success<typeof CurrentMember>) => Effect.Effect<A, E, R>) =>
        Effect.flatMap(CurrentMember, f)
      return handlers
        .handle("list", ({ urlParams }) =>
          as((member) =>
            Effect.flatMap(requestLanguage, (language) =>
              Effect.flatMap(
                notifications.list(member, { ...urlParams, unread: urlParams.unread === "true" }, language),
                (result) => page(M.listed, result)
              ))
          ))
        .handle("stream", () =>
          as((member) =>
            Effect.zipWith(requestLanguage, HttpServerRequest.HttpServerRequest, (language, request) =>
              HttpServerResponse.stream(streams.open(member, request.headers["last-event-id"], language), {
                contentType: "text/event-stream",
                headers: { "cache-control": "no-store", "x-accel-buffering": "no" }
              }))
          ))
        .handle("unreadCount", () =>
          as((member) =>
            Effect.flatMap(notifications.unreadCount(member), (data) =>
              ok(M.unreadCount, data))
          ))
        .handle("readAll", () =>
          as((member) =>
            Effect.flatMap(notifications.readAll(member), (data) =>
              ok(M.allRead, data))
          ))
        .handle("read", ({ path }) =>
          as((member) =>
            Effect.flatMap(requestLanguage, (language) =>
              Effect.flatMap(notifications.read(member, path.id, language), (data) =>
                ok(M.read, data)))
          ))
        .handle("follow", ({ path }) =>
          as((member) =>
            Effect.flatMap(notifications.follow(member, path.id), (data) =>
              ok(M.followed, data))
          ))
        .handle("unfollow", ({ path }) =>
          as((member) =>
            Effect.flatMap(notifications.unfollow(member, path.id), (data) =>
              ok(M.unfollowed, data))
          ))
        .handle("preferences", () =>
          as((member) =>
            Effect.flatMap(notifications.preferences(member), (data) =>
              ok(M.preferences, data))
          ))
        .handle("savePreferences", ({ payload }) =>
          as((member) =>
            Effect.flatMap(notifications.savePreferences(member, payload), (data) =>
              ok(M.preferencesSaved, data))
          ))
    })
)
