import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option, Schema } from "effect"
import { conflict, forbidden, notFound } from "../domain/AppError"
import type { Account, Member } from "../domain/Caller"
import { Uuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { decodeCursor, DEFAULT_LIMIT, type PageQuery, toPage } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { managerRoles, type Role, staffRoles } from "../domain/Role"
import { Identity } from "../identity/Identity"
import { Ids } from "../platform/Ids"
import { Mailer } from "../platform/Mailer"
import { uniqueViolation } from "../sql/errors"
import { transactional } from "../sql/transaction"
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
  if (roles.includes("owner") && member.role !== "owner") return Effect.fail(forbidden(Messages.onlyOwnerManagesOwners))
  if (member.role === "admin" && roles.includes("admin")) return Effect.fail(forbidden(Messages.adminsManageLowerRoles))
  return Effect.void
}

/** Profiles: a person's membership of one community, with role, contact data and tags. */
export class Profiles extends Effect.Service<Profiles>()("@roda/core/Profiles", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ProfilesRepo
    const communities = yield* CommunitiesRepo
    const identity = yield* Identity
    const ids = yield* Ids
    const mailer = yield* Mailer

    const transaction = transactional(sql)

    const find = (member: Member, id: string) =>
      Effect.flatMap(
        repo.find(member.communityId, id.toLowerCase()),
        Option.match({
          onNone: () => Effect.fail(notFound(Messages.profileNotFound)),
          onSome: Effect.succeed
        })
      )

    const view = (member: Member, id: string) => Effect.map(find(member, id), profileView)

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
              ? Effect.fail(forbidden(Messages.adminsManageLowerRoles))
              : Effect.void
          )
        )

    /** Keeps at least one owner: call inside the transaction that demotes or removes `target`. */
    const keepAnOwner = (member: Member, target: ProfileRow) =>
      Effect.gen(function*() {
        if (target.role !== "owner") return
        const owners = yield* repo.lockOwners(member.communityId)
        if (owners.filter((id) => id !== target.id).length === 0) yield* Effect.fail(conflict(Messages.lastOwner))
      })

    /**
     * Makes the person with `email` a member of the community (creating the account when missing),
     * inside the caller's transaction. A new account, or `invite`, gets a set-password link by e-mail.
     * An active membership is a 409, unless `existingIsFine` (then it is returned as it is).
     */
    const join = (communityId: string, input: {
      readonly email: string
      readonly fullName?: string | undefined
      readonly role: Role
      readonly invite: boolean
      readonly existingIsFine?: boolean
    }) =>
      Effect.gen(function*() {
        const community = yield* communities.findById(communityId)
        const communityName = Option.match(community, { onNone: () => "", onSome: (c) => c.name })
        const existing = yield* identity.findByEmail(input.email)
        const fullName = input.fullName ?? Option.match(existing, {
          onNone: () => input.email.split("@")[0] ?? input.email,
          onSome: (account) => account.fullName
        })
        const accountId = Option.isSome(existing)
          ? existing.value.id
          : (yield* identity.createAccount({ email: input.email, fullName, password: null })).id
        const current = yield* repo.findByAccountForUpdate(communityId, accountId)
        let profileId: string
        if (Option.isSome(current)) {
          profileId = current.value.id
          if (current.value.removedAt === null) {
            if (input.existingIsFine === true) return { profileId, link: undefined, accountCreated: false }
            return yield* Effect.fail(conflict(Messages.alreadyMember))
          }
          yield* repo.reactivate(profileId, input.role, fullName)
        } else {
          profileId = yield* ids.next
          // Nothing to lock when two requests add the same account at once: the unique key decides.
          yield* repo.insert({ id: profileId, communityId, accountId, role: input.role, fullName }).pipe(
            Effect.catchAll((error) =>
              uniqueViolation(error) !== undefined ? Effect.fail(conflict(Messages.alreadyMember)) : Effect.die(error)
            )
          )
        }
        const link = input.invite || Option.isNone(existing)
          ? yield* identity.issuePasswordLink(accountId, "invite")
          : undefined
        if (link !== undefined) {
          yield* mailer.send({
            to: input.email,
            communityId,
            kind: "invite",
            subject: `Convite para ${communityName} / Invitation to ${communityName}`,
            text:
              `Você foi convidado para a comunidade ${communityName}. Defina sua senha (link válido por 7 dias):\n${link}\n\n` +
              `You have been invited to the ${communityName} community. Set your password (link valid for 7 days):\n${link}\n`
          })
        }
        return { profileId, link, accountCreated: Option.isNone(existing) }
      })

    const add = Effect.fn("Profiles.add")(function*(member: Member, input: NewProfileInput, invite: boolean) {
      yield* requireRole(member, managerRoles)
      const role = input.role ?? "member"
      yield* checkRoleAuthority(member, [role])
      const { link, profileId } = yield* transaction(
        join(member.communityId, { email: input.email, fullName: input.fullName, role, invite })
      )
      yield* Effect.annotateCurrentSpan("invited", link !== undefined)
      return yield* view(member, profileId)
    })

    const list = Effect.fn("Profiles.list")(function*(
      member: Member,
      query: PageQuery & { role?: Role | undefined; tag?: string | undefined; search?: string | undefined }
    ) {
      const limit = query.limit ?? DEFAULT_LIMIT
      const after = yield* decodeCursor(query.cursor, ProfileCursor)
      const rows = yield* repo.list(member.communityId, {
        limit,
        role: query.role,
        tag: query.tag,
        search: query.search?.trim() || undefined,
        afterId: after?.[0]
      })
      const page = toPage(rows, limit, (row) => [row.id])
      return { items: page.items.map(profileView), pagination: page.pagination }
    })

    const autocomplete = Effect.fn("Profiles.autocomplete")(
      function*(member: Member, q: string, limit: number | undefined) {
        const text = q.trim()
        if (text === "") return []
        return (yield* repo.autocomplete(member.communityId, text, limit ?? 10)).map(profileView)
      }
    )

    const my = Effect.fn("Profiles.my")(function*(account: Account) {
      const rows = yield* repo.ofAccount(account.id)
      return rows.map((row) => ({
        ...profileView(row),
        community: { id: row.communityId, name: row.communityName, slug: row.communitySlug }
      }))
    })

    const update = Effect.fn("Profiles.update")(function*(
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

    const changeEmail = Effect.fn("Profiles.changeEmail")(function*(member: Member, id: string, email: string) {
      const target = yield* find(member, id)
      if (target.id !== member.profileId) {
        yield* requireSelfOrManager(member, target)
        if ((yield* repo.otherMemberships(target.accountId, member.communityId)) > 0) {
          return yield* Effect.fail(forbidden(Messages.emailOfSharedAccount))
        }
      }
      yield* identity.changeEmail(target.accountId, email).pipe(
        Effect.catchAll((error) =>
          uniqueViolation(error) !== undefined ? Effect.fail(conflict(Messages.emailTaken)) : Effect.die(error)
        )
      )
      return yield* view(member, target.id)
    })

    const setTags = Effect.fn("Profiles.setTags")(function*(member: Member, id: string, tags: ReadonlyArray<string>) {
      yield* requireRole(member, staffRoles)
      const target = yield* find(member, id)
      yield* repo.update(member.communityId, target.id, { tags: [...new Set(tags)] })
      return yield* view(member, target.id)
    })

    const changeRole = Effect.fn("Profiles.changeRole")(function*(member: Member, id: string, role: Role) {
      yield* requireRole(member, managerRoles)
      const target = yield* find(member, id)
      if (target.id === member.profileId) return yield* Effect.fail(forbidden(Messages.ownRoleChange))
      yield* checkRoleAuthority(member, [role, target.role])
      if (role !== target.role) {
        yield* transaction(Effect.gen(function*() {
          if (role !== "owner") yield* keepAnOwner(member, target)
          yield* repo.update(member.communityId, target.id, { role })
        }))
      }
      return yield* view(member, target.id)
    })

    const remove = Effect.fn("Profiles.remove")(function*(member: Member, id: string) {
      const target = yield* find(member, id)
      if (target.id !== member.profileId) {
        yield* requireRole(member, managerRoles)
        yield* checkRoleAuthority(member, [target.role])
      }
      const at = new Date(yield* Clock.currentTimeMillis)
      yield* transaction(Effect.gen(function*() {
        yield* keepAnOwner(member, target)
        yield* repo.remove(member.communityId, target.id, at)
      }))
    })

    const tags = (member: Member) => repo.tagCounts(member.communityId)

    const renameTag = Effect.fn("Profiles.renameTag")(function*(member: Member, from: string, to: string) {
      yield* requireRole(member, staffRoles)
      if (from === to) {
        // Nothing to move; renaming onto itself must not drop the tag or its color.
        if (!(yield* repo.tagInUse(member.communityId, from))) return yield* Effect.fail(notFound(Messages.tagNotFound))
        return { profilesChanged: 0 }
      }
      const changed = yield* transaction(Effect.gen(function*() {
        const count = yield* repo.renameTag(member.communityId, from, to)
        if (count > 0) yield* repo.moveTagColor(member.communityId, from, to)
        return count
      }))
      if (changed === 0) return yield* Effect.fail(notFound(Messages.tagNotFound))
      return { profilesChanged: changed }
    })

    const removeTag = Effect.fn("Profiles.removeTag")(function*(member: Member, tag: string) {
      yield* requireRole(member, staffRoles)
      const changed = yield* transaction(Effect.gen(function*() {
        const count = yield* repo.removeTag(member.communityId, tag)
        yield* repo.deleteTagColor(member.communityId, tag)
        return count
      }))
      if (changed === 0) return yield* Effect.fail(notFound(Messages.tagNotFound))
      return { profilesChanged: changed }
    })

    const setTagColor = Effect.fn("Profiles.setTagColor")(function*(member: Member, tag: string, color: string) {
      yield* requireRole(member, staffRoles)
      if (!(yield* repo.tagInUse(member.communityId, tag))) return yield* Effect.fail(notFound(Messages.tagNotFound))
      yield* repo.setTagColor(member.communityId, tag, color.toLowerCase())
      return { tag, color: color.toLowerCase() }
    })

    return {
      add,
      join,
      list,
      autocomplete,
      my,
      update,
      changeEmail,
      setTags,
      changeRole,
      remove,
      tags,
      renameTag,
      removeTag,
      setTagColor
    }
  }),
  dependencies: [ProfilesRepo.Default, CommunitiesRepo.Default, Identity.Default]
}) {}
