import { Context, type Effect } from "effect"
import type { NotificationKind } from "./kinds"

/** What a notification is about, as the inbox shows it: what the reader opens. */
export interface Subject {
  /** e.g. `status`, `content`, `course`, `event`, `certificate`, `submission`, `payout`, `space`. */
  readonly type: string
  readonly id: string
  /** A title, or an excerpt of a text without one (`excerpt`); kept as it was when notified. */
  readonly title: string
}

export interface Notification {
  readonly kind: NotificationKind
  /** Profile ids of the community; the actor, non-members and those who turned this kind off are skipped. */
  readonly recipients: ReadonlyArray<string>
  readonly actorProfileId?: string | null | undefined
  readonly subject: Subject
  /** The space whose content the subject is: only members who may read it are notified. */
  readonly spaceId?: string | null | undefined
  /**
   * The item whose text caused it when it is not the subject (a comment mentioning or replying in a
   * post): hiding or removing that item withdraws it (`withdraw`).
   */
  readonly sourceId?: string | undefined
  /**
   * Written at most once per recipient and kind with this key (e.g. the post of a `space_post`): a
   * producer that may run again (a job) names one, so that it duplicates nothing.
   */
  readonly onceKey?: string | undefined
}

/**
 * How a feature notifies members (contract; `NotifyLive` writes the notifications' own tables).
 * Called inside the change's transaction: one statement, committed or rolled back with the change.
 */
export class Notify extends Context.Tag("@roda/core/Notify")<Notify, {
  /** Writes one notification per recipient who wants it, in one statement; none for no recipients. */
  readonly notify: (communityId: string, notification: Notification) => Effect.Effect<void>
  /**
   * `notify` for a producer that sends its own, richer e-mail (an event's reminder with its time, a
   * certificate with its link): the notifications are written without an e-mail of their own, and the
   * answer is the recipients (among those notified) who want this kind by e-mail, by their preferences:
   * the producer e-mails those only. One statement, in the caller's transaction.
   */
  readonly notifyMailing: (communityId: string, notification: Notification) => Effect.Effect<ReadonlyArray<string>>
  /**
   * Content hidden or removed by moderation leaves the notifications: those about it or caused by it
   * (`subject.id` or `sourceId`) are deleted, but the `moderation` ones; one statement.
   */
  readonly withdraw: (communityId: string, itemId: string) => Effect.Effect<void>
  /**
   * A member who just joined follows the community's feed spaces they may read (platform.md: members
   * of a feed space follow it on joining); one statement, in the caller's transaction.
   */
  readonly followFeeds: (communityId: string, profileId: string) => Effect.Effect<void>
  /**
   * A `space_post` to every follower of the space, the author excepted: written later by durable jobs
   * in batches (never inside the request); here one statement, the job, in the caller's transaction.
   */
  readonly notifyFollowers: (
    communityId: string,
    spaceId: string,
    notification: Omit<Notification, "kind" | "recipients" | "onceKey" | "spaceId">
  ) => Effect.Effect<void>
}>() {}

const MARKUP = /@\[([^\]\n]{1,200})\]\([0-9a-fA-F-]{36}\)/g

/** A subject title made from a text with no title of its own: one line, mentions as `@Name`, at most `max`. */
export const excerpt = (text: string, max = 80): string => {
  const line = text.replace(MARKUP, "@$1").replace(/\s+/g, " ").trim()
  return line.length <= max ? line : `${line.slice(0, max - 1).trimEnd()}…`
}
