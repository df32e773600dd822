import { Effect } from "effect"
import { forbidden } from "./AppError"
import type { Account, Member } from "./Caller"
import { Messages } from "./Messages"
import type { Role } from "./Role"

/** 403 unless the member holds one of `roles` (spec §7: "Função necessária: ... Sua função: ..."). */
export const requireRole = (member: Member, roles: ReadonlyArray<Role>) =>
  roles.includes(member.role) ? Effect.void : Effect.fail(forbidden(Messages.roleRequired(roles, member.role)))

/** 403 unless the account is a platform operator (SuperAdmin, from `PLATFORM_ADMIN_EMAILS`). */
export const requirePlatformAdmin = (account: Account) =>
  account.isPlatformAdmin ? Effect.void : Effect.fail(forbidden(Messages.platformAdminRequired))

/**
 * 403 unless the account's holder confirmed their e-mail: acts that reach other people or move
 * money (inviting, opening a call for papers, requesting a payout) need a proven address.
 */
export const requireVerifiedEmail = (account: Account) =>
  account.emailVerified ? Effect.void : Effect.fail(forbidden(Messages.emailNotVerified))
