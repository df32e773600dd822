import { Effect, Option } from "effect"
import { invalidField } from "../domain/AppError"
import { type CommunityId, isUuid } from "../domain/Ids"
import type { Message } from "../domain/Text"
import type { AccessCatalog, AccessGrants } from "./Access"
import { structureMessages as M } from "./messages"

/** Grants as stored: lower-cased and without repeats. */
export interface GrantsInput {
  readonly subscriptionGroupIds?: ReadonlyArray<string> | undefined
  readonly productIds?: ReadonlyArray<string> | undefined
}

export const normalizeGrants = (grants: GrantsInput): AccessGrants => ({
  subscriptionGroupIds: [...new Set((grants.subscriptionGroupIds ?? []).map((id) => id.toLowerCase()))],
  productIds: [...new Set((grants.productIds ?? []).map((id) => id.toLowerCase()))]
})

/** 400 `The access grant … does not exist in this community.` (param `access`) unless every grant exists. */
export const checkGrants = (catalog: typeof AccessCatalog.Service, communityId: CommunityId, grants: AccessGrants) =>
  Effect.gen(function*() {
    const all = [...grants.subscriptionGroupIds, ...grants.productIds]
    if (all.length === 0) return
    const malformed = all.find((id) => !isUuid(id))
    const unknown = malformed !== undefined ? Option.some(malformed) : yield* catalog.firstUnknown(communityId, grants)
    if (Option.isSome(unknown)) {
      return yield* Effect.fail(invalidField("access", M.accessGrantUnknown(unknown.value)))
    }
  })

/** 400 on `ids` unless `ids` is exactly `current`, each once. */
export const checkSameSet = <Code extends string>(
  current: ReadonlyArray<string>,
  ids: ReadonlyArray<string>,
  message: Message<Code>
) => {
  const wanted = new Set(ids)
  const same = wanted.size === ids.length && ids.length === current.length && current.every((id) => wanted.has(id))
  return same ? Effect.void : Effect.fail(invalidField("ids", message))
}
