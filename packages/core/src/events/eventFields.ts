import { Effect } from "effect"
import { badRequest, fieldError, invalidField } from "../domain/AppError"
import type { PageQuery } from "../domain/Pagination"
import { eventMessages as M } from "./messages"
import { type EventType, isCategory, type ParticipantStatus, requiredAddressParts } from "./Policy"
import type { EventFields } from "./Repo"

/** What the events use cases take, and the rules an event's fields obey. */
export interface AddressInput {
  readonly street?: string | null | undefined
  readonly number?: string | null | undefined
  readonly complement?: string | null | undefined
  readonly neighbourhood?: string | null | undefined
  readonly city?: string | null | undefined
  readonly state?: string | null | undefined
  readonly postalCode?: string | null | undefined
  readonly country?: string | null | undefined
}

export interface EventChangesInput {
  readonly title?: string | undefined
  readonly slug?: string | undefined
  readonly description?: string | null | undefined
  readonly type?: EventType | undefined
  readonly startTime?: string | undefined
  readonly endTime?: string | undefined
  readonly timezone?: string | null | undefined
  readonly capacity?: number | null | undefined
  readonly categoryId?: string | null | undefined
  readonly joinUrl?: string | null | undefined
  readonly address?: AddressInput | null | undefined
}

export interface NewEventInput extends EventChangesInput {
  readonly spaceId?: string | null | undefined
  readonly title: string
  readonly type: EventType
  readonly startTime: string
  readonly endTime: string
}

export interface EventQuery extends PageQuery {
  readonly spaceId?: string | undefined
  readonly upcoming?: "true" | "false" | undefined
}

export interface ParticipantQuery extends PageQuery {
  readonly status?: ParticipantStatus | undefined
}

const emptyText = (value: string | null | undefined) => {
  const trimmed = value?.trim() ?? ""
  return trimmed === "" ? null : trimmed
}

/** The address columns of an address input (every part; absent parts are null). */
export const addressColumns = (address: AddressInput | null) => ({
  street: emptyText(address?.street),
  number: emptyText(address?.number),
  complement: emptyText(address?.complement),
  neighbourhood: emptyText(address?.neighbourhood),
  city: emptyText(address?.city),
  state: emptyText(address?.state),
  postalCode: emptyText(address?.postalCode),
  country: emptyText(address?.country)
})

/** The rules an event obeys after every change: times in order, an in-person address, a known category. */
export const checkEvent = (event: EventFields, addressSent: boolean) =>
  Effect.gen(function*() {
    if (event.startTime.getTime() >= event.endTime.getTime()) {
      return yield* Effect.fail(invalidField("endTime", M.eventTimesOrder))
    }
    if (event.categoryId !== null && !isCategory(event.categoryId)) {
      return yield* Effect.fail(invalidField("categoryId", M.eventCategoryUnknown(event.categoryId)))
    }
    if (event.type === "in_person") {
      const missing = requiredAddressParts.filter((part) => event[part] === null)
      if (missing.length === requiredAddressParts.length && !addressSent) {
        return yield* Effect.fail(invalidField("address", M.eventAddressRequired))
      }
      if (missing.length > 0) {
        const errors = missing.map((part) => fieldError(`address.${part}`, M.eventAddressPartRequired(part)))
        return yield* Effect.fail(badRequest(M.eventAddressPartRequired(missing[0]!), errors))
      }
    }
  })
