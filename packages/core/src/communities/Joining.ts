import { Effect, Option } from "effect"
import { conflict, forbidden } from "../domain/AppError"
import { type CommunityId, ProfileId } from "../domain/Ids"
import type { Role } from "../domain/Role"
import { Identity } from "../identity/Identity"
import { Notify } from "../notifications/Notify"
import { Ids } from "../platform/Ids"
import { Mailer } from "../platform/Mailer"
import { uniqueViolation } from "../sql/errors"
import { WebhookEvents } from "../webhooks/WebhookEvents"
import { communityMessages as M } from "./messages"
import { ProfilesRepo } from "./ProfilesRepo"
import { CommunitiesRepo, type ProfileRow, type ProfileStatus } from "./Repo"
import { profileView } from "./view"

/**
 * Becoming a member: adding a person to a community (by staff, an invitation, or their own purchase),
 * and the `member.joined` webhook event, written with the profile the change's own statement answered.
 */
export class MemberJoining extends Effect.Service<MemberJoining>()("@roda/core/MemberJoining", {
  effect: Effect.gen(function*() {
    const repo = yield* ProfilesRepo
    const communities = yield* CommunitiesRepo
    const identity = yield* Identity
    const ids = yield* Ids
    const mailer = yield* Mailer
    const events = yield* WebhookEvents
    const notify = yield* Notify

    /**
     * A member joined: `member.joined` with the profile as its route answers it (staff view), and the
     * feed spaces they may read followed (notifications' `Notify`).
     */
    const joined = (row: ProfileRow) =>
      Effect.zipRight(
        events.emit(row.communityId, "member.joined", profileView(row, true)),
        notify.followFeeds(row.communityId, row.id)
      )

    /**
     * Adds the person with `email` to the community, inside the caller's transaction. A new e-mail
     * creates the account and an active profile, and gets a set-password link by e-mail. An existing
     * account is never made a member without consent: it gets an `invited` profile (a removed one is
     * invited again) and an invitation e-mail, with a set-password link when it has no password yet.
     * A live profile (active or invited) is a 409, unless `existingIsFine` (then it is returned).
     * `accountCreated` is kept for callers that still read it. `holderConsents`: the caller is the
     * account holder themselves (signed in, e.g. buying while not a member): their own act is consent,
     * so the profile is active at once. A banned account (moderation) is refused: 409 `memberBanned`
     * to whoever adds or invites it, 403 `bannedSelf` to the holder joining (a purchase).
     */
    const join = (communityId: CommunityId, input: {
      readonly email: string
      readonly fullName?: string | undefined
      readonly role: Role
      readonly invite: boolean
      readonly existingIsFine?: boolean
      readonly holderConsents?: boolean
    }) =>
      Effect.gen(function*() {
        const community = yield* communities.findById(communityId)
        const communityName = Option.match(community, { onNone: () => "", onSome: (c) => c.name })
        const existing = yield* identity.findByEmail(input.email)
        const fullName = input.fullName ?? Option.match(existing, {
          onNone: () => input.email.split("@")[0] ?? input.email,
          onSome: (account) => account.fullName
        })
        const consented = input.holderConsents === true
        const status: ProfileStatus = Option.isSome(existing) && !consented ? "invited" : "active"
        const accountId = Option.isSome(existing)
          ? existing.value.id
          : (yield* identity.createAccount({ email: input.email, fullName, password: null })).id
        const current = yield* repo.findByAccountForUpdate(communityId, accountId)
        let profileId: ProfileId
        let row: ProfileRow
        if (Option.isSome(current)) {
          profileId = current.value.id
          // Banned by moderation: nobody brings the account back, nor does it join, until unbanned.
          if (current.value.bannedAt !== null) {
            return yield* Effect.fail(consented ? forbidden(M.bannedSelf) : conflict(M.memberBanned))
          }
          if (current.value.removedAt === null) {
            if (input.existingIsFine === true) {
              if (current.value.status === "invited" && consented) {
                const accepted = yield* repo.accept(communityId, profileId, accountId)
                if (Option.isSome(accepted)) yield* joined(accepted.value)
                return { profileId, link: undefined, accountCreated: false, status: "active" as const, row: accepted }
              }
              return {
                profileId,
                link: undefined,
                accountCreated: false,
                status: current.value.status,
                row: Option.none<ProfileRow>()
              }
            }
            return yield* Effect.fail(
              conflict(current.value.status === "invited" ? M.alreadyInvited : M.alreadyMember)
            )
          }
          row = yield* repo.reactivate(profileId, input.role, fullName, status)
        } else {
          profileId = ProfileId.make(yield* ids.next)
          // Nothing to lock when two requests add the same account at once: the unique key decides.
          row = yield* repo.insert({ id: profileId, communityId, accountId, role: input.role, fullName, status }).pipe(
            Effect.catchAll((error) =>
              uniqueViolation(error) !== undefined ? Effect.fail(conflict(M.alreadyMember)) : Effect.die(error)
            )
          )
        }
        const needsPassword = Option.isNone(existing) ||
          !(yield* identity.hasPassword(accountId))
        const link = needsPassword ? yield* identity.issuePasswordLink(accountId, "invite") : undefined
        const to = Option.match(existing, { onNone: () => input.email, onSome: (account) => account.email })
        if (status === "invited") {
          // the holder is asked: nobody becomes a member without consent
          const answer = new URL("/invitations", identity.publicBaseUrl)
          answer.searchParams.set("profileId", profileId)
          answer.searchParams.set("communityId", communityId)
          const passwordPt = link === undefined ? "" : `\nDefina também sua senha (link válido por 7 dias):\n${link}\n`
          const passwordEn = link === undefined ? "" : `\nAlso set your password (link valid for 7 days):\n${link}\n`
          yield* mailer.send({
            to,
            communityId,
            kind: "invitation",
            subject: `Convite para ${communityName} / Invitation to ${communityName}`,
            text:
              `Você foi convidado para a comunidade ${communityName}. Aceite ou recuse o convite em:\n${answer}\n${passwordPt}\n` +
              `You have been invited to the ${communityName} community. Accept or decline at:\n${answer}\n${passwordEn}`
          })
        } else if (link !== undefined) {
          yield* mailer.send({
            to,
            communityId,
            kind: "invite",
            subject: `Convite para ${communityName} / Invitation to ${communityName}`,
            text:
              `Você foi convidado para a comunidade ${communityName}. Defina sua senha (link válido por 7 dias):\n${link}\n\n` +
              `You have been invited to the ${communityName} community. Set your password (link valid for 7 days):\n${link}\n`
          })
        }
        if (status === "active") yield* joined(row)
        return { profileId, link, accountCreated: Option.isNone(existing), status, row: Option.some(row) }
      })

    return { join, joined }
  }),
  dependencies: [ProfilesRepo.Default, CommunitiesRepo.Default, Identity.Default]
}) {}
