import { SqlError } from "@effect/sql/SqlError"
import { Effect, Schema } from "effect"
import { conflict, fieldError, invalidField } from "../../domain/AppError"
import { Uuid } from "../../domain/Ids"
import { CursorPart, type PageQuery } from "../../domain/Pagination"
import type { Message } from "../../domain/Text"
import { uniqueViolation } from "../../sql/errors"
import { CallMessages } from "./messages"
import type { CallStatus } from "./Policy"
import type { EventDateFields } from "./Repo"

/** What the calls use cases take, their list cursors, and the checks they share. */
export const TimeCursor = Schema.Tuple(CursorPart.timestamp, Uuid)
export const TrackCursor = Schema.Tuple(CursorPart.int4, Uuid)
export const DateCursor = Schema.Tuple(Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/)), Uuid)

export interface CallChangesInput {
  readonly title?: string | undefined
  readonly slug?: string | undefined
  readonly description?: string | null | undefined
  readonly opensAt?: string | null | undefined
  readonly closesAt?: string | null | undefined
  readonly communityVoting?: boolean | undefined
  readonly anonymousReviews?: boolean | undefined
}

export interface NewCallInput extends CallChangesInput {
  readonly spaceId?: string | null | undefined
  readonly title: string
}

export interface TrackInput {
  readonly name?: string | undefined
  readonly description?: string | null | undefined
  readonly color?: string | null | undefined
  readonly position?: number | undefined
}

export interface EventDateInput {
  readonly date?: string | undefined
  readonly label?: string | null | undefined
  readonly startTime?: string | null | undefined
  readonly endTime?: string | null | undefined
}

export interface CallQuery extends PageQuery {
  readonly status?: CallStatus | undefined
}

export const lower = (id: string) => id.trim().toLowerCase()

export const checkCallDates = (call: { readonly opensAt: Date | null; readonly closesAt: Date | null }) =>
  call.opensAt !== null && call.closesAt !== null && call.opensAt.getTime() >= call.closesAt.getTime()
    ? Effect.fail(invalidField("closesAt", CallMessages.callDatesOrder))
    : Effect.void

export const checkTimes = (fields: EventDateFields) =>
  fields.startTime !== null && fields.endTime !== null && fields.startTime >= fields.endTime
    ? Effect.fail(invalidField("endTime", CallMessages.eventTimesOrder))
    : Effect.void

export const taken = <Code extends string>(param: string, message: Message<Code>) =>
  conflict(message, [fieldError(param, message)])

/** Fails with `error()` instead of a unique violation; other SQL errors are defects. */
export const onUnique = <F>(error: () => F) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.catchAll(
    effect,
    (cause): Effect.Effect<never, F | Exclude<E, SqlError>> =>
      uniqueViolation(cause) !== undefined
        ? Effect.fail(error())
        : cause instanceof SqlError
        ? Effect.die(cause)
        : Effect.fail(cause as Exclude<E, SqlError>)
  )
