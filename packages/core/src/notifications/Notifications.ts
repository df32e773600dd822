import { Clock, Effect, Option, Schema } from "effect"
import { notFound } from "../domain/AppError"
import type { Member } from "../domain/Caller"
import { Uuid } from "../domain/Ids"
import { CursorPart, type PageQuery, paginate } from "../domain/Pagination"
import type { Language } from "../domain/Text"
import { traced } from "../platform/traced"
import { Access, viewerOfMember } from "../structure/Access"
import { defaultPreference, NOTIFICATION_KINDS, type NotificationKind, type Preference } from "./kinds"
import { NotificationMessages as M, notificationText } from "./messages"
import { NotificationsRepo } from "./Repo"
import type { NotificationRow } from "./rows"

const InboxCursor = Schema.Tuple(CursorPart.timestamp, Uuid)

export type Preferences = { readonly [K in NotificationKind]: Preference }
export type PreferenceChanges = {
  readonly [K in NotificationKind]?: {
    readonly inApp?: boolean | undefined
    readonly email?: Preference["email"] | undefined
  } | undefined
}

/** A notification as the inbox lists it. */
export const view = (language: Language) => (row: NotificationRow) => ({
  id: row.id,
  kind: row.kind,
  createdAt: row.createdAt.toISOString(),
  readAt: row.readAt?.toISOString() ?? null,
  actor: row.actorProfileId === null ? null : { profileId: row.actorProfileId, fullName: row.actorName ?? "" },
  subject: { type: row.subjectType, id: row.subjectId, title: row.subjectTitle },
  text: notificationText(row.kind, row.actorName, row.subjectTitle, language)
})

/**
 * The inbox of the caller's acting profile in the header's community, its preferences and the
 * spaces it follows. Every member has these; nobody reads another's.
 */
export class Notifications extends Effect.Service<Notifications>()("@roda/core/Notifications", {
  effect: Effect.gen(function*() {
    const repo = yield* NotificationsRepo
    const access = yield* Access
    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    const list = traced("Notifications.list")(
      function*(member: Member, query: PageQuery & { readonly unread?: boolean | undefined }, language: Language) {
        return yield* paginate(
          query,
          InboxCursor,
          (after, limit) =>
            Effect.map(
              repo.list(member.communityId, member.actingProfileId, query.unread === true, after, limit),
              (rows) => rows.map(view(language))
            ),
          (item) => [item.createdAt, item.id]
        )
      }
    )

    const unreadCount = traced("Notifications.unreadCount")(function*(member: Member) {
      return { count: yield* repo.unreadCount(member.communityId, member.actingProfileId) }
    })

    const read = traced("Notifications.read")(function*(member: Member, id: string, language: Language) {
      const row = yield* repo.markRead(member.communityId, member.actingProfileId, id, yield* now)
      if (Option.isNone(row)) return yield* Effect.fail(notFound(M.notificationNotFound))
      return view(language)(row.value)
    })

    const readAll = traced("Notifications.readAll")(function*(member: Member) {
      return { count: yield* repo.markAllRead(member.communityId, member.actingProfileId, yield* now) }
    })

    /** A space whose content the member may read (404 hidden or of another community, 403 gated). */
    const follow = traced("Notifications.follow")(function*(member: Member, spaceId: string) {
      const space = yield* access.readContent(viewerOfMember(member), spaceId)
      yield* repo.follow(member.communityId, space.spaceId, member.actingProfileId, yield* now)
      return { spaceId: space.spaceId, following: true }
    })

    const unfollow = traced("Notifications.unfollow")(function*(member: Member, spaceId: string) {
      const space = yield* access.space(viewerOfMember(member), spaceId)
      yield* repo.unfollow(member.communityId, space.spaceId, member.actingProfileId)
      return { spaceId: space.spaceId, following: false }
    })

    const current = (member: Member) =>
      Effect.map(repo.preferences(member.communityId, member.actingProfileId), (rows) => {
        const stored = new Map(rows.map((row) => [row.kind, { inApp: row.inApp, email: row.email }]))
        return Object.fromEntries(
          NOTIFICATION_KINDS.map((kind) => [kind, stored.get(kind) ?? defaultPreference(kind)])
        ) as Preferences
      })

    const preferences = traced("Notifications.preferences")(function*(member: Member) {
      return yield* current(member)
    })

    /** Kinds left out, and fields left out of a kind, keep their setting. */
    const savePreferences = traced("Notifications.savePreferences")(
      function*(member: Member, changes: PreferenceChanges) {
        const before = yield* current(member)
        const after: Record<NotificationKind, Preference> = { ...before }
        const changed = NOTIFICATION_KINDS.flatMap((kind) => {
          const change = changes[kind]
          if (change === undefined) return []
          const next: Preference = {
            inApp: change.inApp ?? before[kind].inApp,
            email: change.email ?? before[kind].email
          }
          after[kind] = next
          return [{ kind, ...next }]
        })
        yield* repo.savePreferences(member.communityId, member.actingProfileId, changed, yield* now)
        return after
      }
    )

    return { list, unreadCount, read, readAll, follow, unfollow, preferences, savePreferences }
  })
}) {}
