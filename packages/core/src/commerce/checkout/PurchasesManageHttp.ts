import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { RodaApi } from "../../api/RodaApi"
import { CurrentMember } from "../../domain/Caller"
import { apiGroup } from "../../http/engine/apiGroup"
import { ok, page } from "../../http/Reply"
import { refundMessages as M } from "./refundMessages"
import { Refunds } from "./Refunds"

export const PurchasesManageHttp = apiGroup(
  RodaApi,
  "purchasesManage",
  (handlers) =>
    Effect.gen(function*() {
      const refunds = yield* Refunds
      return handlers
        .handle("list", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => refunds.list(member, urlParams)),
            Effect.flatMap((result) => page(M.sales, result))
          ))
        .handleRaw("exportCsv", ({ urlParams }) =>
          CurrentMember.pipe(
            Effect.flatMap((member) => refunds.csv(member, urlParams)),
            Effect.map((body) =>
              HttpServerResponse.text(body, {
                contentType: "text/csv; charset=utf-8",
                headers: { "content-disposition": "attachment; filename=\"purchases.csv\"" }
              })
            )
          ))
        .handle("refund", ({ path, payload }) =>
          Effect.all([CurrentMember, HttpServerRequest.HttpServerRequest]).pipe(
            Effect.flatMap(([member, request]) =>
              refunds.refund(member, path.id, payload, request.headers["idempotency-key"])
            ),
            Effect.flatMap((data) => ok(M.refunded, data))
          ))
    })
)
