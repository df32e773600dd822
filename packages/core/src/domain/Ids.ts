import { Schema } from "effect"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isUuid = (value: string): boolean => uuidPattern.test(value)

/** A UUID as it travels on the wire; stored lower-case. */
export const Uuid = Schema.String.pipe(
  Schema.filter((value) => isUuid(value), { message: () => "must be a valid UUID" }),
  Schema.annotations({ identifier: "Uuid", format: "uuid" })
)

/*
 * Ids by kind: a brand over `Uuid` (lower-case once canonicalised), so that one kind of id cannot be
 * passed where another is expected. `make` checks the UUID; rows decoded with these schemas carry
 * the brand from the repository on.
 */
export const AccountId = Uuid.pipe(Schema.brand("AccountId"))
export type AccountId = typeof AccountId.Type
export const CommunityId = Uuid.pipe(Schema.brand("CommunityId"))
export type CommunityId = typeof CommunityId.Type
export const ProfileId = Uuid.pipe(Schema.brand("ProfileId"))
export type ProfileId = typeof ProfileId.Type
export const SpaceId = Uuid.pipe(Schema.brand("SpaceId"))
export type SpaceId = typeof SpaceId.Type
export const SectionId = Uuid.pipe(Schema.brand("SectionId"))
export type SectionId = typeof SectionId.Type

/** Path parameter `{id}` as a UUID. */
export const IdParam = Schema.Struct({ id: Uuid })

/** A community id from a path or payload `Uuid`, lower-cased as stored: where an operator route's id enters. */
export const communityIdOf = (uuid: string): CommunityId => CommunityId.make(uuid.toLowerCase())
