import { SqlClient } from "@effect/sql"
import { Clock, Effect, Option } from "effect"
import { conflict, notFound } from "../domain/AppError"
import type { Account, Member } from "../domain/Caller"
import { slugify } from "../domain/Fields"
import { orNotFound } from "../domain/found"
import { CommunityId, ProfileId } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import type { PageQuery } from "../domain/Pagination"
import { requireRole } from "../domain/Policy"
import { managerRoles } from "../domain/Role"
import { Ids } from "../platform/Ids"
import { traced } from "../platform/traced"
import { uniqueViolation } from "../sql/errors"
import { transactional } from "../sql/transaction"
import { communityMessages as M } from "./messages"
import { Profiles } from "./Profiles"
import { ProfilesRepo } from "./ProfilesRepo"
import { CommunitiesRepo } from "./Repo"
import { communityView } from "./view"

/** A unique violation on the slug or domain index becomes a 409 naming which. */
const conflictOnAddress = <A, R>(effect: Effect.Effect<A, unknown, R>) =>
  Effect.catchAll(effect, (error) => {
    const constraint = uniqueViolation(error)
    if (constraint === undefined) return Effect.die(error)
    return Effect.fail(conflict(constraint.includes("domain") ? M.domainTaken : Messages.slugTaken))
  })

/** Communities: creation, identity (name, slug, domain), settings and notification settings. */
export class Communities extends Effect.Service<Communities>()("@roda/core/Communities", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* CommunitiesRepo
    const profilesRepo = yield* ProfilesRepo
    const profiles = yield* Profiles
    const ids = yield* Ids

    /** The community the path names must be the one of the header; any other is not found here. */
    const sameCommunity = (member: Member, id: string) =>
      member.communityId === id.toLowerCase() ? Effect.void : Effect.fail(notFound(Messages.communityNotFound))

    const current = (id: string) => Effect.map(orNotFound(Messages.communityNotFound)(repo.findById(id)), communityView)

    /**
     * A free slug: the requested one, or for a generated one the first free `name-2` … `name-10`,
     * then `name-<random>` (a common name must never run out of slugs).
     */
    const insertWithFreeSlug = (
      row: { id: string; name: string; slug: string; customDomain: string | null; createdBy: string },
      generated: boolean
    ) =>
      Effect.gen(function*() {
        for (let attempt = 1;; attempt++) {
          const slug = attempt === 1
            ? row.slug
            : attempt <= 10
            ? `${row.slug.slice(0, 74)}-${attempt}`
            : `${row.slug.slice(0, 71)}-${(yield* ids.next).slice(-8)}`
          const inserted = yield* sql.withTransaction(repo.insert({ ...row, slug })).pipe(
            conflictOnAddress,
            Effect.as(slug),
            Effect.catchIf(
              (error) => generated && attempt < 50 && error.text === Messages.slugTaken,
              () => Effect.succeed(undefined)
            )
          )
          if (inserted !== undefined) return inserted
        }
      })

    const create = traced("Communities.create")(function*(
      account: Account,
      input: { name: string; slug?: string | undefined; customDomain?: string | null | undefined }
    ) {
      const id = CommunityId.make(yield* ids.next)
      const profileId = ProfileId.make(yield* ids.next)
      const generated = input.slug === undefined
      const base = input.slug ?? (slugify(input.name) || "community")
      return yield* transactional(sql)(
        Effect.gen(function*() {
          const slug = yield* insertWithFreeSlug(
            { id, name: input.name, slug: base, customDomain: input.customDomain ?? null, createdBy: account.id },
            generated
          )
          yield* profilesRepo.insert({
            id: profileId,
            communityId: id,
            accountId: account.id,
            role: "owner",
            fullName: account.fullName
          })
          return {
            id,
            name: input.name,
            slug,
            customDomain: input.customDomain ?? null,
            role: "owner" as const,
            profileId
          }
        })
      )
    })

    const update = traced("Communities.update")(function*(
      member: Member,
      id: string,
      changes: { name?: string | undefined; slug?: string | undefined; customDomain?: string | null | undefined }
    ) {
      yield* sameCommunity(member, id)
      yield* requireRole(member, ["owner"])
      const set = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
      if (Object.keys(set).length > 0) yield* conflictOnAddress(repo.update(member.communityId, set))
      return yield* current(member.communityId)
    })

    const remove = traced("Communities.remove")(function*(member: Member, id: string) {
      yield* sameCommunity(member, id)
      yield* requireRole(member, ["owner"])
      yield* repo.softDelete(member.communityId, new Date(yield* Clock.currentTimeMillis))
    })

    const members = traced("Communities.members")(function*(member: Member, id: string, query: PageQuery) {
      yield* sameCommunity(member, id)
      return yield* profiles.list(member, query)
    })

    const updateSettings = traced("Communities.updateSettings")(function*(
      member: Member,
      id: string,
      settings: Record<string, unknown>
    ) {
      yield* sameCommunity(member, id)
      yield* requireRole(member, managerRoles)
      const defined = Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined))
      yield* repo.mergeSettings(member.communityId, defined)
      return yield* current(member.communityId)
    })

    const notificationSettings = traced("Communities.notificationSettings")(function*(member: Member) {
      yield* requireRole(member, managerRoles)
      const row = yield* repo.notificationSettings(member.communityId)
      return Option.match(row, {
        onNone: () => ({ salesEmail: null, updatedAt: null }),
        onSome: (r) => ({ salesEmail: r.salesEmail, updatedAt: r.updatedAt.toISOString() })
      })
    })

    const setNotificationSettings = traced("Communities.setNotificationSettings")(function*(
      member: Member,
      salesEmail: string | null
    ) {
      yield* requireRole(member, managerRoles)
      yield* repo.setNotificationSettings(member.communityId, salesEmail)
      return yield* notificationSettings(member)
    })

    return {
      create,
      my: (account: Account) => repo.ofAccount(account.id),
      resolve: (address: string) =>
        Effect.map(orNotFound(Messages.communityNotFound)(repo.findByAddress(address)), communityView),
      update,
      remove,
      members,
      updateSettings,
      notificationSettings,
      setNotificationSettings
    }
  }),
  dependencies: [CommunitiesRepo.Default, ProfilesRepo.Default, Profiles.Default]
}) {}
