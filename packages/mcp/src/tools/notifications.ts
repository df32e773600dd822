import { Notifications } from "@roda/core"
import { Effect } from "effect"
import { adds, reads, routeTool, sets, type ToolSpec } from "../tool"

/**
 * The connection's member's own notifications (any member, the routes' rule): what an assistant
 * reads to tell them what happened, and marks read once it has. Preferences stay with people.
 */
export const notificationTools: ReadonlyArray<ToolSpec> = [
  routeTool("notifications", "list", {
    name: "list_notifications",
    title: "My notifications",
    description:
      "The member's notifications in this community, newest first: `kind` (mention, reply, space_post, …), `text` (what happened, in the caller's language), `actor`, `subject` (what to open), `readAt`. `unread: \"true\"` lists only the unread ones.",
    hints: reads,
    run: ({ urlParams }, member, language) =>
      Effect.flatMap(
        Notifications,
        (n) => n.list(member, { ...urlParams, unread: urlParams.unread === "true" }, language)
      )
  }),
  routeTool("notifications", "unreadCount", {
    name: "unread_notification_count",
    title: "Unread notifications",
    description: "How many of the member's notifications in this community are unread.",
    hints: reads,
    run: (_, member) => Effect.flatMap(Notifications, (n) => n.unreadCount(member))
  }),
  routeTool("notifications", "read", {
    name: "mark_notification_read",
    title: "Mark a notification read",
    description: "Marks the member's notification `id` read (a notification read before keeps its first `readAt`).",
    hints: sets,
    run: ({ path }, member, language) => Effect.flatMap(Notifications, (n) => n.read(member, path.id, language))
  }),
  routeTool("notifications", "readAll", {
    name: "mark_all_notifications_read",
    title: "Mark every notification read",
    description: "Marks all the member's notifications in this community read; answers how many were unread.",
    hints: sets,
    run: (_, member) => Effect.flatMap(Notifications, (n) => n.readAll(member))
  }),
  routeTool("notifications", "follow", {
    name: "follow_space",
    title: "Follow a space",
    description: "The member follows the space `id`: its new posts then notify them (`space_post`).",
    hints: adds,
    run: ({ path }, member) => Effect.flatMap(Notifications, (n) => n.follow(member, path.id))
  })
]
