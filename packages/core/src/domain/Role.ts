import { Schema } from "effect"

export const Role = Schema.Literal("owner", "admin", "moderator", "member", "finance")
export type Role = typeof Role.Type

/** Roles that see and manage everything in a community's content. */
export const staffRoles: ReadonlyArray<Role> = ["owner", "admin", "moderator"]
export const managerRoles: ReadonlyArray<Role> = ["owner", "admin"]

export const isStaff = (role: Role): boolean => staffRoles.includes(role)
