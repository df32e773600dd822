import { Effect } from "effect"
import { forbidden } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { Messages } from "../domain/Messages"
import { isStaff } from "../domain/Role"

/**
 * Edits and removals of posts and comments: their author (the profile that posted, X-ProfileId
 * included) or staff (owner, admin, moderator); anyone else 403.
 */
export const requireAuthorOrStaff = (member: Member, authorProfileId: string) =>
  authorProfileId === member.actingProfileId || isStaff(member.role)
    ? Effect.void
    : Effect.fail(forbidden(Messages.authorOrStaffRequired(member.role)))
