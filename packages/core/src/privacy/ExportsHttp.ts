import { HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { ok } from "../http/Reply"
import { Exports } from "./Exports"
import { PrivacyMessages as M } from "./messages"

export const PrivacyExportsHttp = apiGroup(RodaApi, "privacyExports", (handlers) =>
  Effect.gen(function*() {
    const exports = yield* Exports
    return handlers
      .handle("request", () =>
        Effect.flatMap(CurrentAccount, (account) => exports.request(account)).pipe(
          Effect.flatMap((result) => ok(result.created ? M.exportRequested : M.exportUnderWay, result.export))
        ))
      .handle("status", ({ path }) =>
        Effect.flatMap(CurrentAccount, (account) => exports.status(account, path.id)).pipe(
          Effect.flatMap((data) => ok(M.exportFound, data))
        ))
      .handle("download", ({ path, urlParams }) =>
        Effect.map(exports.download(path.id, urlParams.token), (file) =>
          HttpServerResponse.stream(file.blob.stream, {
            contentType: "application/zip",
            contentLength: file.blob.size,
            headers: {
              "content-disposition": `attachment; filename="${file.filename}"`,
              "cache-control": "private, no-store",
              "referrer-policy": "no-referrer",
              "x-content-type-options": "nosniff"
            }
          })))
  }))
