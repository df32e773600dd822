import { Chunk, Effect, Stream } from "effect"
import type { Roda } from "../../src/index"
import { PersonalData } from "../../src/privacy/PersonalData"

/** Every export file's records for `accountId` (`PersonalData` of the running Roda), by file name, in order. */
export const exportOf = (roda: Roda, accountId: string) =>
  roda.runtime.runPromise(
    Effect.flatMap(PersonalData, (data) =>
      Effect.flatMap(data.subjectOf(accountId), (subject) =>
        Effect.forEach(data.files, (file) =>
          Effect.map(
            Stream.runCollect(file.records(subject)),
            (records) =>
              [file.name, Chunk.toReadonlyArray(records) as ReadonlyArray<any>] as const
          )).pipe(Effect.map((entries) => ({ subject, files: entries, byName: Object.fromEntries(entries) })))))
  )

/** The records of one file (`name`) for `accountId`, read inside a span named `span` (statement counts). */
export const recordsOf = (roda: Roda, accountId: string, name: string, span = "PersonalDataFiles.test") =>
  roda.runtime.runPromise(
    Effect.flatMap(PersonalData, (data) =>
      Effect.flatMap(data.subjectOf(accountId), (subject) => {
        const file = data.files.find((candidate) => candidate.name === name)
        if (file === undefined) return Effect.dieMessage(`no export file ${name}`)
        return Effect.map(
          Stream.runCollect(file.records(subject)).pipe(Effect.withSpan(span)),
          (records) => Chunk.toReadonlyArray(records) as ReadonlyArray<any>
        )
      }))
  )

/** An ISO 8601 instant in UTC, to the millisecond, as `Date.prototype.toISOString` writes it. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
