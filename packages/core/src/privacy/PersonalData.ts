import { Context, type Effect, type Stream } from "effect"

/**
 * Whose data a request under members' data rights concerns (platform.md "Members' data rights"): an
 * account and every profile it has or had, in every community (removed and banned ones included).
 */
export interface DataSubject {
  readonly accountId: string
  readonly profiles: ReadonlyArray<{ readonly communityId: string; readonly profileId: string }>
}

/**
 * One JSON file of a data export (`posts.json`): an array of the subject's records, written as they
 * are read. `records` reads in keyset pages of a bounded size (never the whole set in memory), each
 * record a JSON-ready object (ids, ISO dates, money as strings of minor units with a currency).
 */
export interface ExportFile {
  /** The file's name in the ZIP, e.g. `posts.json`; unique over all features. */
  readonly name: string
  /** One line of `README.txt`: what the file holds, written for the member. */
  readonly describes: string
  readonly records: (subject: DataSubject) => Stream.Stream<unknown>
}

/** How an erasure treats what the member wrote. */
export interface ErasureOptions {
  /** `deleteContent: true`: posts and comments are deleted; otherwise kept under the former member's name. */
  readonly deleteContent: boolean
}

/** A community the subject owns that has other members: it must be handed over before an erasure. */
export interface OwnedCommunity {
  readonly id: string
  readonly name: string
}

/**
 * What one feature does for an erasure, in the caller's transaction: erase or pseudonymise what it
 * holds of the subject, and enqueue jobs (in the same transaction) for what cannot be done there
 * (files, search entries). Running it again for the same subject changes nothing more (a retried
 * request, an operator's second run).
 */
export interface ErasureStep {
  /** The feature, e.g. `social`. */
  readonly feature: string
  /** What the feature keeps after an erasure and why (tax, consumer law), for the OpenAPI description. */
  readonly keeps?: string | undefined
  /** Communities that block the erasure (the owner must hand them over first); only `communities` answers. */
  readonly blockers?: ((subject: DataSubject) => Effect.Effect<ReadonlyArray<OwnedCommunity>>) | undefined
  readonly erase: (subject: DataSubject, options: ErasureOptions) => Effect.Effect<void>
}

/**
 * What every feature holds of a person (contract, issue 56): each feature that holds personal data
 * adds its export files and its erasure step, in its own folder (`<feature>/personalDataExport.ts`,
 * `<feature>/personalDataErasure.ts`) on its own tables; the composition root gathers them
 * (`app/personalData.ts`). The `privacy` feature runs exports and erasures on it.
 */
export class PersonalData extends Context.Tag("@roda/core/PersonalData")<PersonalData, {
  /** The account's profiles in every community (communities answers); none for an unknown account. */
  readonly subjectOf: (accountId: string) => Effect.Effect<DataSubject>
  readonly files: ReadonlyArray<ExportFile>
  readonly erasures: ReadonlyArray<ErasureStep>
}>() {}
