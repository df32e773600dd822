import { Schema } from "effect"

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const isUuid = (value: string): boolean => uuidPattern.test(value)

/** A UUID as it travels on the wire; stored lower-case. */
export const Uuid = Schema.String.pipe(
  Schema.filter((value) => isUuid(value), { message: () => "must be a valid UUID" }),
  Schema.annotations({ identifier: "Uuid", format: "uuid" })
)

export const AccountId = Uuid.pipe(Schema.brand("AccountId"))
export type AccountId = typeof AccountId.Type
export const CommunityId = Uuid.pipe(Schema.brand("CommunityId"))
export type CommunityId = typeof CommunityId.Type
export const ProfileId = Uuid.pipe(Schema.brand("ProfileId"))
export type ProfileId = typeof ProfileId.Type

/** Path parameter `{id}` as a UUID. */
export const IdParam = Schema.Struct({ id: Uuid })
