import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope } from "../http/Security"
import { EMAIL_CADENCES, NOTIFICATION_KINDS, type NotificationKind } from "./kinds"

const Notification = Schema.Struct({
  id: Schema.String,
  kind: Schema.String.annotations({ description: `One of ${NOTIFICATION_KINDS.map((k) => `\`${k}\``).join(", ")}` }),
  createdAt: Schema.String,
  readAt: Schema.NullOr(Schema.String),
  actor: Schema.NullOr(Schema.Struct({ profileId: Schema.String, fullName: Schema.String })).annotations({
    description: "Who did what the notification tells; null when nobody did (a reminder, a payout)"
  }),
  subject: Schema.Struct({
    type: Schema.String.annotations({
      description: "What to open: `status`, `content`, `course`, `event`, `space`, …"
    }),
    id: Schema.String,
    title: Schema.String.annotations({
      description: "Its title as it was when notified (an excerpt of the text of a status post)"
    })
  }),
  text: Schema.String.annotations({
    description: "What happened, in the request's language (`Accept-Language`: Portuguese unless English is asked)"
  })
})

const Count = Schema.Struct({ count: Schema.Number })

const Cadence = Schema.Literal(...EMAIL_CADENCES).annotations({
  message: () => ({ message: `must be one of: ${EMAIL_CADENCES.join(", ")}`, override: true })
})
const Preference = Schema.Struct({
  inApp: Schema.Boolean.annotations({ description: "Shown in the inbox" }),
  email: Cadence.annotations({
    description:
      "`instant`: an e-mail each, sent when the minute it was written in ends; `daily`: in a digest at 08:00 in the community's time zone (its `timezone` setting, UTC without one); `weekly`: in a digest on Mondays at 08:00 there; `off`: none. A notification read in the app before its e-mail goes out is not e-mailed; every e-mail has a one-click unsubscribe link (`List-Unsubscribe`, RFC 8058) that turns its kinds' e-mail `off`"
  })
})
const PreferenceChange = Schema.Struct({
  inApp: Schema.optional(Schema.Boolean.annotations({ message: () => "must be true or false" })),
  email: Schema.optional(Cadence)
})
const Preferences = Schema.Struct(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, Preference])) as {
    readonly [K in NotificationKind]: typeof Preference
  }
)
const PreferenceChanges = Body(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, Schema.optional(PreferenceChange)])) as {
    readonly [K in NotificationKind]: Schema.optional<typeof PreferenceChange>
  }
)

const Following = Schema.Struct({ spaceId: Schema.String, following: Schema.Boolean })

const InboxQuery = Schema.extend(
  PageQuery,
  Schema.Struct({
    unread: Schema.optional(
      Schema.Literal("true", "false").annotations({
        message: () => ({ message: "must be true or false", override: true }),
        description: "`true`: only the notifications not read yet"
      })
    )
  })
)

const ID = Schema.Struct({ id: Uuid })
const MEMBERS =
  "Any member, for the profile they act as (`X-ProfileId`, else their own), in the header's community; a non-member: 403."

/** The member's notifications, the spaces they follow and what they want to be told (platform.md). */
export class NotificationsApi extends HttpApiGroup.make("notifications")
  .annotateContext(OpenApi.annotations({
    title: "Notifications",
    description:
      "What happened that concerns a member: mentions, replies, new posts in spaces they follow, and more. Each member has an inbox per community, read newest first, and chooses per kind whether to see it in the app and how often to get e-mail."
  }))
  .add(
    HttpApiEndpoint.get("list", "/notifications")
      .setUrlParams(InboxQuery)
      .addSuccess(Page(Notification))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "My notifications")
      .annotate(
        OpenApi.Description,
        `${MEMBERS} Newest first (keyset: \`limit\`, \`cursor\`); \`unread=true\` lists only those not read yet. \`text\` says what happened in the request's language; \`actor\` is who did it; \`subject\` is what to open: for \`mention\` and \`reply\` the post (\`status\`, \`content\`, \`course\`, \`event\`) the mention or the comment is in. \`mention\`: someone mentioned the member (\`@[Name](profileId)\`) in a post or comment, or added the mention in an edit; \`reply\`: a comment on the member's post, or a reply to their comment (one mentioned there is told of the mention only); \`reaction\`: someone reacted to the member's post or comment, at most one per post or comment and hour whoever reacts (the subject is the post; for a comment, titled with the comment); \`space_post\`: a new post in a space the member follows (written by jobs in batches; not to one mentioned in it, who is told of the mention); \`event_reminder\`: an event the member is going to starts in 24 hours or in 1 hour; \`event_changed\`: its time or place changed, or it was canceled; \`course_update\`: a lesson was added to a published course the member is enrolled in (jobs in batches); \`certificate_issued\`: the member's certificate was issued; \`submission_update\`: a call-for-papers submission the member speaks in moved (decided, counter-offer, confirmed…), told to its accepted speakers but the one who moved it; \`invitation\`: the member was invited to co-speak, to submit to a call, to own a call or to review a track; \`payment_failed\`: a renewal of the member's subscription failed, or its last retry did (access suspended); \`payout_update\`: a payout the member requested moved (in transit, paid, failed, canceled); \`moderation\`: moderation hid or removed the member's content, or suspended them or lifted it (no actor: moderation acts as the community). For reminders, event changes, certificates, submissions, invitations and failed payments the feature's own e-mail (with its links and attachments) is the notification's e-mail: it goes only to those whose e-mail preference for the kind is not \`off\`. Nobody is told of what they did themselves, nor of content of a space they may not read.`
      )
  )
  .add(
    HttpApiEndpoint.get("stream", "/notifications/stream")
      .addSuccess(HttpApiSchema.Text({ contentType: "text/event-stream" }))
      .annotate(OpenApi.Summary, "My notifications as they happen (Server-Sent Events)")
      .annotate(
        OpenApi.Description,
        `${MEMBERS} Answers \`text/event-stream\` and stays open: each new notification of the member arrives within about a second of being written as \`id: <notification id>\\nevent: notification\\ndata: <the item, JSON, exactly as GET /api/notifications lists it, in the request's language>\\n\\n\`; the stream opens with a comment line \`: open\` (so that the status and headers arrive at once) and a comment line \`: heartbeat\` comes every 25 seconds so that proxies keep the connection. The token goes in \`Authorization\` as on every route (browsers' \`EventSource\` cannot send it: use a fetch-based client). To resume after a disconnection, open the stream again with \`Last-Event-ID: <id of the last event received>\`: the notifications written after that one are sent first, oldest first, then new ones as they come. Without it (or with an id not in the member's inbox), only notifications written from then on are sent; read the inbox with \`GET /api/notifications\` for those before.`
      )
  )
  .add(
    HttpApiEndpoint.get("unreadCount", "/notifications/unread-count")
      .addSuccess(Ok(Count))
      .annotate(OpenApi.Summary, "How many notifications are unread")
      .annotate(OpenApi.Description, `${MEMBERS} \`data.count\`: the notifications not read yet, for a badge.`)
  )
  .add(
    HttpApiEndpoint.post("readAll", "/notifications/read-all")
      .addSuccess(Ok(Count))
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Mark every notification as read")
      .annotate(OpenApi.Description, `${MEMBERS} \`data.count\`: how many were unread until now.`)
  )
  .add(
    HttpApiEndpoint.post("read", "/notifications/:id/read")
      .setPath(ID)
      .addSuccess(Ok(Notification))
      .addError(declared(NotFound, "notification_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Mark a notification as read")
      .annotate(
        OpenApi.Description,
        `${MEMBERS} Answers the notification; one read before keeps its first \`readAt\`. Another member's notification, or another community's: 404.`
      )
  )
  .add(
    HttpApiEndpoint.post("follow", "/spaces/:id/follow")
      .setPath(ID)
      .addSuccess(Ok(Following))
      .addError(declared(Forbidden, "space_content_forbidden"))
      .addError(declared(NotFound, "space_unknown"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Follow a space")
      .annotate(
        OpenApi.Description,
        `${MEMBERS} New posts in the space then notify the member (\`space_post\`; only posts made once they follow). A member who joins the community follows, at once, every feed space they may read then; other spaces, and feed spaces created or opened to them later, are followed here. The space must be one whose content the member may read: hidden or of another community 404, gated 403. Following twice changes nothing.`
      )
  )
  .add(
    HttpApiEndpoint.del("unfollow", "/spaces/:id/follow")
      .setPath(ID)
      .addSuccess(Ok(Following))
      .addError(declared(NotFound, "space_unknown"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Stop following a space")
      .annotate(
        OpenApi.Description,
        `${MEMBERS} A space the member does not follow is left as it is (200). Hidden or of another community: 404.`
      )
  )
  .add(
    HttpApiEndpoint.get("preferences", "/notification-preferences")
      .addSuccess(Ok(Preferences))
      .annotate(OpenApi.Summary, "My notification preferences")
      .annotate(
        OpenApi.Description,
        `${MEMBERS} Every kind with \`inApp\` (shown in the inbox) and \`email\` (\`off\`, \`instant\`, \`daily\`, \`weekly\`). Until changed: in the app for every kind; e-mail \`instant\` for mention, reply, event_reminder, event_changed, certificate_issued, submission_update, invitation, payment_failed, payout_update and moderation, \`daily\` for the rest.`
      )
  )
  .add(
    HttpApiEndpoint.put("savePreferences", "/notification-preferences")
      .setPayload(PreferenceChanges)
      .addSuccess(Ok(Preferences))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Change my notification preferences")
      .annotate(
        OpenApi.Description,
        `${MEMBERS} \`{ "<kind>": { "inApp"?, "email"? } }\`: kinds and fields left out keep their setting; an unknown kind or value answers 400 naming it in \`errors[].param\`. With \`inApp: false\` that kind is no longer shown in the inbox (its e-mails still follow \`email\`). Answers every kind, as \`GET\` does.`
      )
  )
  .middleware(MemberScope)
  .prefix("/api")
{}
