import { Effect } from "effect"
import { forbidden } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { requireRole } from "../domain/Policy"
import { isStaff, type Role } from "../domain/Role"
import { socialMessages as M } from "./messages"

/**
 * Edits and removals of posts and comments: their author (the profile that posted, X-ProfileId
 * included) or staff (owner, admin, moderator); anyone else 403.
 */
export const requireAuthorOrStaff = (member: Member, authorProfileId: string) =>
  authorProfileId === member.actingProfileId || isStaff(member.role)
    ? Effect.void
    : Effect.fail(forbidden(M.authorOrStaffRequired(member.role)))

/**
 * Edits as `requireAuthorOrStaff`, but an edit keeps the author's name on words they did not write:
 * as only an owner may act as an owner (spec §5, X-ProfileId), only an owner edits an owner's post
 * or comment (403 `Função necessária: owner…`). Removing it stays open to staff.
 */
export const requireMayEdit = (member: Member, author: { readonly profileId: string; readonly role: Role }) =>
  Effect.zipRight(
    requireAuthorOrStaff(member, author.profileId),
    author.role === "owner" && author.profileId !== member.actingProfileId
      ? requireRole(member, ["owner"])
      : Effect.void
  )
