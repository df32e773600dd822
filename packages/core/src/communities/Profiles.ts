import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { type Coded, conflict, type Forbidden, forbidden, notFound } from "../domain/AppError"
import type { Account, Member } from "../domain/Caller"
import { orNotFound } from "../domain/found"
import { type CommunityId, Uuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { type PageQuery, paginate } from "../domain/Pagination"
import { requireRole, requireVerifiedEmail } from "../domain/Policy"
import { isStaff, managerRoles, type Role, staffRoles } from "../domain/Role"
import { clientAddress } from "../http/ClientAddress"
import { Identity } from "../identity/Identity"
import { RateLimits } from "../platform/RateLimits"
import { traced } from "../platform/traced"
import { transactional } from "../sql/transaction"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { MemberJoining } from "./Joining"
import { communityMessages as M } from "./messages"
import { ProfilesRepo } from "./ProfilesRepo"
import { CommunitiesRepo, type ProfileRow } from "./Repo"
import { profileView } from "./view"

/** Profiles are listed in id order (UUIDv7: joining order); the cursor is the last id. */
const ProfileCursor = Schema.Tuple(Uuid)

export interface NewProfileInput {
  readonly email: string
  readonly fullName?: string | undefined
  readonly role?: Role | undefined
  readonly communityId?: string | undefined
}

/**
 * Who may hand out or take away `role` on `target`: only an owner touches `owner`; admins manage
 * moderator, member and finance.
 */
const checkRoleAuthority = (member: Member, roles: ReadonlyArray<Role>) => {
  if (roles.includes("owner") && member.role !== "owner") return Effect.fail(forbidden(M.onlyOwnerManagesOwners))
  if (member.role === "admin" && roles.includes("admin")) return Effect.fail(forbidden(M.adminsManageLowerRoles))
  return Effect.void
}

/** Profiles: a person's membership of one community, with role, contact data and tags. */
export class Profiles extends Effect.Service<Profiles>()("@roda/core/Profiles", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ProfilesRepo
    const communities = yield* CommunitiesRepo
    const identity = yield* Identity
    const limits = yield* RateLimits
    const events = yield* WebhookEvents
    const joining = yield* MemberJoining

    const transaction = transactional(sql)

    const find = (member: Member, id: string) =>
      orNotFound(M.profileNotFound)(repo.find(member.communityId, id.toLowerCase()))

    /** Personal fields for staff and for the holder's own profile. */
    const seesAll = (member: Member, row: ProfileRow) => isStaff(member.role) || row.id === member.profileId

    const viewFor = (member: Member) => (row: ProfileRow) => profileView(row, seesAll(member, row))

    const view = (member: Member, id: string) => Effect.map(find(member, id), viewFor(member))

    /** The profile's holder, or an owner/admin (who may not act on an owner unless an owner). */
    /**
     * The profile's holder, or a manager above it: an owner, or an admin acting on a moderator,
     * member or finance profile (an admin editing another admin could take over their account).
     */
    const requireSelfOrManager = (member: Member, target: ProfileRow) =>
      target.id === member.profileId
        ? Effect.void
        : requireRole(member, managerRoles).pipe(
          Effect.zipRight(
            target.role === "owner"
              ? requireRole(member, ["owner"])
              : target.role === "admin" && member.role === "admin"
              ? Effect.fail(forbidden(M.adminsManageLowerRoles))
              : Effect.void as Effect.Effect<void, Coded<Forbidden, "role_required" | "admins_manage_lower_roles">>
          )
        )

    /** Keeps at least one owner: call inside the transaction that demotes or removes `target`. */
    const keepAnOwner = (member: Member, target: ProfileRow) =>
      Effect.gen(function*() {
        if (target.role !== "owner") return
        const owners = yield* repo.lockOwners(member.communityId)
        if (owners.filter((id) => id !== target.id).length === 0) yield* Effect.fail(conflict(M.lastOwner))
      })

    /**
     * Owner or admin; with the community setting `membersCanInvite`, any member may invite (`/invite`
     * only), and only with role `member`.
     */
    const requireInviter = (member: Member, role: Role, invite: boolean) =>
      Effect.gen(function*() {
        if (managerRoles.includes(member.role)) return
        const refused = Effect.fail(forbidden(Messages.roleRequired(managerRoles, member.role)))
        if (!invite || role !== "member") return yield* refused
        const community = yield* communities.findById(member.communityId)
        const open = Option.isSome(community) && community.value.settings["membersCanInvite"] === true
        if (!open) return yield* refused
      })

    const add = traced("Profiles.add")(function*(member: Member, input: NewProfileInput, invite: boolean) {
      const role = input.role ?? "member"
      yield* requireInviter(member, role, invite)
      yield* checkRoleAuthority(member, [role])
      yield* requireVerifiedEmail(member.account)
      // Counted once the caller may add members: a refused caller cannot use up the community's budget.
      yield* limits.enforce("invite", member.communityId)
      const { profileId, row, status } = yield* transaction(
        joining.join(member.communityId, { email: input.email, fullName: input.fullName, role, invite })
      )
      yield* Effect.annotateCurrentSpan("status", status)
      return Option.isSome(row) ? viewFor(member)(row.value) : yield* view(member, profileId)
    })

    const list = traced("Profiles.list")(function*(
      member: Member,
      query: PageQuery & { role?: Role | undefined; tag?: string | undefined; search?: string | undefined }
    ) {
      // Tags are personal (staff-only) data: filtering by one would tell a member who carries it.
      if (query.tag !== undefined) yield* requireRole(member, staffRoles)
      const page = yield* paginate(
        query,
        ProfileCursor,
        (after, limit) =>
          repo.list(member.communityId, {
            limit,
            role: query.role,
            tag: query.tag,
            search: query.search?.trim() || undefined,
            byEmail: isStaff(member.role),
            afterId: after?.[0]
          }),
        (row) => [row.id]
      )
      return { items: page.items.map(viewFor(member)), pagination: page.pagination }
    })

    const autocomplete = traced("Profiles.autocomplete")(
      function*(member: Member, q: string, limit: number | undefined) {
        const text = q.trim()
        if (text === "") return []
        return (yield* repo.autocomplete(member.communityId, text, limit ?? 10, isStaff(member.role))).map(
          viewFor(member)
        )
      }
    )

    const my = traced("Profiles.my")(function*(account: Account) {
      const rows = yield* repo.ofAccount(account.id)
      return rows.map((row) => ({
        ...profileView(row),
        community: { id: row.communityId, name: row.communityName, slug: row.communitySlug }
      }))
    })

    const update = traced("Profiles.update")(function*(
      member: Member,
      id: string,
      changes: {
        fullName?: string | undefined
        bio?: string | null | undefined
        avatarUrl?: string | null | undefined
        phone?: string | null | undefined
      }
    ) {
      const target = yield* find(member, id)
      yield* requireSelfOrManager(member, target)
      const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
      yield* repo.update(member.communityId, target.id, set)
      return yield* view(member, target.id)
    })

    /** Only the holder; the login changes once the link sent to the new address is used. */
    const changeEmail = traced("Profiles.changeEmail")(function*(
      member: Member,
      id: string,
      input: { email: string; currentPassword: string }
    ) {
      const target = yield* find(member, id)
      if (target.id !== member.profileId || target.accountId !== member.account.id) {
        return yield* Effect.fail(forbidden(M.emailOnlyByHolder))
      }
      const { pendingEmail } = yield* identity.requestEmailChange(member.account.id, input, yield* clientAddress)
      return { ...(yield* view(member, target.id)), pendingEmail }
    })

    /** The holder accepts an invitation of the community; an already accepted own profile answers as is. */
    const accept = traced("Profiles.accept")(function*(account: Account, communityId: CommunityId, id: string) {
      const profileId = id.toLowerCase()
      return yield* transaction(Effect.gen(function*() {
        const accepted = yield* repo.accept(communityId, profileId, account.id)
        if (Option.isSome(accepted)) {
          yield* joining.joined(accepted.value)
          return profileView(accepted.value, true)
        }
        // Accepted before: the own profile answers as is.
        const row = yield* repo.ownProfile(communityId, profileId, account.id)
        if (Option.isNone(row) || row.value.status !== "active") {
          return yield* Effect.fail(notFound(M.invitationNotFound))
        }
        return profileView(row.value, true)
      }))
    })

    const decline = traced("Profiles.decline")(function*(account: Account, communityId: CommunityId, id: string) {
      const at = new Date(yield* Clock.currentTimeMillis)
      if (!(yield* repo.decline(communityId, id.toLowerCase(), account.id, at))) {
        return yield* Effect.fail(notFound(M.invitationNotFound))
      }
    })

    const setTags = traced("Profiles.setTags")(function*(member: Member, id: string, tags: ReadonlyArray<string>) {
      yield* requireRole(member, staffRoles)
      const target = yield* find(member, id)
      yield* repo.update(member.communityId, target.id, { tags: [...new Set(tags)] })
      return yield* view(member, target.id)
    })

    const changeRole = traced("Profiles.changeRole")(function*(member: Member, id: string, role: Role) {
      yield* requireRole(member, managerRoles)
      const target = yield* find(member, id)
      if (target.id === member.profileId) return yield* Effect.fail(forbidden(M.ownRoleChange))
      yield* checkRoleAuthority(member, [role, target.role])
      if (role === target.role) return yield* view(member, target.id)
      const changed = yield* transaction(Effect.gen(function*() {
        if (role !== "owner") yield* keepAnOwner(member, target)
        yield* repo.update(member.communityId, target.id, { role })
        const row = yield* find(member, target.id)
        yield* events.emit(member.communityId, "member.role_changed", {
          ...profileView(row, true),
          previousRole: target.role
        })
        return row
      }))
      return viewFor(member)(changed)
    })

    const remove = traced("Profiles.remove")(function*(member: Member, id: string) {
      const target = yield* find(member, id)
      if (target.id !== member.profileId) {
        yield* requireRole(member, managerRoles)
        yield* checkRoleAuthority(member, [target.role])
      }
      const at = new Date(yield* Clock.currentTimeMillis)
      yield* transaction(Effect.gen(function*() {
        yield* keepAnOwner(member, target)
        yield* repo.remove(member.communityId, target.id, at)
        if (target.status === "active") {
          yield* events.emit(member.communityId, "member.left", {
            ...profileView(target, true),
            removedAt: at.toISOString()
          })
        }
      }))
    })

    const tags = (member: Member) => repo.tagCounts(member.communityId)

    const renameTag = traced("Profiles.renameTag")(function*(member: Member, from: string, to: string) {
      yield* requireRole(member, staffRoles)
      if (from === to) {
        // Nothing to move; renaming onto itself must not drop the tag or its color.
        if (!(yield* repo.tagInUse(member.communityId, from))) return yield* Effect.fail(notFound(M.tagNotFound))
        return { profilesChanged: 0 }
      }
      const changed = yield* transaction(Effect.gen(function*() {
        const count = yield* repo.renameTag(member.communityId, from, to)
        if (count > 0) yield* repo.moveTagColor(member.communityId, from, to)
        return count
      }))
      if (changed === 0) return yield* Effect.fail(notFound(M.tagNotFound))
      return { profilesChanged: changed }
    })

    const removeTag = traced("Profiles.removeTag")(function*(member: Member, tag: string) {
      yield* requireRole(member, staffRoles)
      const changed = yield* transaction(Effect.gen(function*() {
        const count = yield* repo.removeTag(member.communityId, tag)
        yield* repo.deleteTagColor(member.communityId, tag)
        return count
      }))
      if (changed === 0) return yield* Effect.fail(notFound(M.tagNotFound))
      return { profilesChanged: changed }
    })

    const setTagColor = traced("Profiles.setTagColor")(function*(member: Member, tag: string, color: string) {
      yield* requireRole(member, staffRoles)
      if (!(yield* repo.tagInUse(member.communityId, tag))) return yield* Effect.fail(notFound(M.tagNotFound))
      yield* repo.setTagColor(member.communityId, tag, color.toLowerCase())
      return { tag, color: color.toLowerCase() }
    })

    return {
      add,
      join: joining.join,
      list,
      autocomplete,
      my,
      update,
      changeEmail,
      accept,
      decline,
      setTags,
      changeRole,
      remove,
      tags,
      renameTag,
      removeTag,
      setTagColor
    }
  }),
  dependencies: [ProfilesRepo.Default, CommunitiesRepo.Default, Identity.Default, MemberJoining.Default]
}) {}
