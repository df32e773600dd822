import { Schema } from "effect"

/** One of fixed values, failing with a single message that lists them. */
export const OneOf = <const Values extends ReadonlyArray<string>>(...values: Values) =>
  Schema.Literal(...values).annotations({
    // `override`: one message for the union instead of one per member
    message: () => ({ message: `must be one of: ${values.join(", ")}`, override: true })
  })

export const Role = OneOf("owner", "admin", "moderator", "member", "finance")
export type Role = typeof Role.Type

/** Roles that see and manage everything in a community's content. */
export const staffRoles: ReadonlyArray<Role> = ["owner", "admin", "moderator"]
export const managerRoles: ReadonlyArray<Role> = ["owner", "admin"]

export const isStaff = (role: Role): boolean => staffRoles.includes(role)
