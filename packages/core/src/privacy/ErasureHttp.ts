import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentAccount } from "../domain/Caller"
import { clientAddress } from "../http/ClientAddress"
import { apiGroup } from "../http/engine/apiGroup"
import { ok } from "../http/Reply"
import { Erasure } from "./Erasure"
import { PrivacyMessages as M } from "./messages"

export const ErasureHttp = apiGroup(RodaApi, "privacyErasure", (handlers) =>
  Effect.gen(function*() {
    const erasure = yield* Erasure
    return handlers.handle("eraseAccount", ({ payload }) =>
      Effect.gen(function*() {
        const data = yield* erasure.eraseOwn(yield* CurrentAccount, payload, yield* clientAddress)
        return yield* ok(M.accountErased, data)
      }))
  }))
