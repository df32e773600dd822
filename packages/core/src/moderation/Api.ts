import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, Name, Trimmed } from "../domain/Fields"
import { Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope } from "../http/Security"
import { pendingActions } from "./pendingActions"
import { pendingEndpoints } from "./PendingApi"
import { actions, caseStatuses, logActions, reasons, subjectTypes } from "./Policy"

const Note = Schema.optional(Schema.NullOr(Trimmed(2000)))

const NewReport = Body({
  subjectType: OneOf(...subjectTypes),
  subjectId: Uuid,
  reason: OneOf(...reasons),
  note: Note
})

/** A member's report, as `POST /api/reports` answers it and `report.created` sends it. */
export const Report = Schema.Struct({
  id: Schema.String,
  caseId: Schema.String,
  reporterProfileId: Schema.String,
  subjectType: OneOf(...subjectTypes),
  subjectId: Schema.String,
  reason: OneOf(...reasons),
  note: Schema.NullOr(Schema.String),
  createdAt: Schema.String
})

const Person = Schema.Struct({ id: Schema.String, fullName: Schema.NullOr(Schema.String) })

export const Case = Schema.Struct({
  id: Schema.String,
  subject: Schema.Struct({
    type: OneOf(...subjectTypes),
    id: Schema.String,
    excerpt: Schema.String.annotations({
      description: "The start of the subject as last reported (kept when it is removed)"
    }),
    author: Schema.NullOr(Person)
  }),
  reportCount: Schema.Number,
  reasons: Schema.Array(OneOf(...reasons)),
  status: OneOf(...caseStatuses),
  createdAt: Schema.String,
  resolvedAt: Schema.NullOr(Schema.String),
  resolution: Schema.NullOr(Schema.Struct({
    action: OneOf(...actions),
    note: Schema.NullOr(Schema.String),
    resolvedBy: Person
  }))
})

const LogEntry = Schema.Struct({
  id: Schema.String,
  action: OneOf(...logActions, ...pendingActions),
  actor: Person,
  subject: Schema.Struct({ type: OneOf(...subjectTypes), id: Schema.String, excerpt: Schema.NullOr(Schema.String) }),
  caseId: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  until: Schema.NullOr(Schema.String).annotations({ description: "A suspension's end (`suspend` only)" }),
  createdAt: Schema.String
})

const MemberPath = Schema.Struct({ profileId: Uuid })
const Suspension = Body({
  days: Schema.Number.pipe(Schema.int(), Schema.between(1, 365)).annotations({
    description: "How many days from now (1 to 365)"
  }),
  reason: Name(2000)
})
const SuspensionState = Schema.Struct({ profileId: Schema.String, suspendedUntil: Schema.NullOr(Schema.String) })
const Ban = Body({ reason: Name(2000) })
const BanState = Schema.Struct({
  profileId: Schema.String,
  bannedAt: Schema.NullOr(Schema.String),
  banReason: Schema.NullOr(Schema.String)
})
const WHOM =
  "The moderator in the log is the caller (also when acting with X-ProfileId). A moderator acts on moderators, members and finance profiles; only an owner on an admin; nobody on an owner (403); nobody on themselves (403 `Você não pode moderar a si mesmo.`: a permission, not a malformed request). A profile that is not an active member of this community (another community's, removed, invited): 404. Written to the log with who, what, when and why."

const CasesQuery = Schema.Struct({ ...PageQuery.fields, status: Schema.optional(OneOf(...caseStatuses)) })
const Resolution = Body({ action: OneOf(...actions), note: Note })

const STAFF =
  "Owner, admin or moderator (403 `Função necessária: owner ou admin ou moderator. Sua função: …` otherwise)."
const ACTIONS =
  "The actions by subject type: `status`, `comment`, `content` and `event` take `dismiss`, `hide` and `remove`; `profile` and `submission` take `dismiss` only (`hide` or `remove` answer 400 `action_not_supported`, `param: action`). `dismiss` closes the case and leaves the subject as it is. `hide`: the post, comment or event stays for its author (an event's host; marked `hidden: true`) and staff, and leaves the feed, search, the lists of everyone else, every count and (an event) its reminders; its participants keep their place. `remove`: the soft delete its author's removal does (a comment takes its replies; an event's participants going are told it is canceled and `event.canceled` is sent, as when its host removes it): nobody reads it; the case and the log keep its excerpt. Both withdraw the notifications about the subject or caused by it, and its author gets a `moderation` notification (the moderator is not named). Why not the others: a profile is a person, not content: its case is closed with `dismiss`, and staff act on the member through `POST /api/moderation/members/{profileId}/suspend` or `/ban`. A submission is a proposal read only by its speakers and its call's organisers and reviewers, never published to the community: there is nothing to hide, and refusing it is the organisers' decision in the call (`recusada`); its case is closed with `dismiss`."

/** Members' reports, the staff's queue of cases and the moderation log (platform.md "Moderation"). */
export class ModerationApi extends HttpApiGroup.make("moderation")
  .annotateContext(OpenApi.annotations({
    title: "Moderation",
    description:
      "Members report what breaks the community's rules; reports on one subject form one case; owners, admins and moderators resolve cases (dismiss, hide, remove), and staff suspend members (they read but cannot post, comment, react or take part until a date), and every action is in the log."
  }))
  .add(
    HttpApiEndpoint.post("report", "/reports")
      .setPayload(NewReport)
      .addSuccess(Ok(Schema.Struct({ ...Report.fields, alreadyReported: Schema.Literal(false) })), { status: 201 })
      .addSuccess(Ok(Schema.Struct({ ...Report.fields, alreadyReported: Schema.Literal(true) })))
      .addError(declared(InvalidInput, "own_content"))
      .addError(declared(NotFound, "subject_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Report a post, comment, event, profile or submission")
      .annotate(
        OpenApi.Description,
        "Member (the X-ProfileId profile when acting is the reporter). `subjectType`: `status`, `comment`, `content` (a content post), `event`, `profile` (a member) or `submission` (a call-for-papers submission); `subjectId` its id; `reason`: `spam`, `harassment`, `hate`, `sexual`, `violence`, `misinformation` or `other`; `note` (optional, up to 2000 characters). Answers 201 with the report (`data.id`, `data.caseId`). The same reporter reporting the same subject again answers 200 with the first report (`alreadyReported: true`), whatever became of its case, even when both requests arrive at once. A subject the reporter cannot read (by its feature's rules: a post in a space closed to them, a hidden post, someone else's draft submission), removed, or of another community answers 404 `subject_not_found`; reporting one's own post, comment, event (as its host), profile or submission (as one of its speakers) answers 400 `own_content` (`param: subjectId`). Reports on one subject form one open case, however many arrive at once. A report on a subject whose case was resolved (dismissed: hidden and removed subjects cannot be read by reporters) opens a new case: the resolved one stays as decided, in the queue of resolved cases and the log. A new report sends the `report.created` webhook event (a repeat does not)."
      )
  )
  .add(
    HttpApiEndpoint.get("cases", "/moderation/cases")
      .setUrlParams(CasesQuery)
      .addSuccess(Page(Case))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "Moderation cases")
      .annotate(
        OpenApi.Description,
        `${STAFF} The community's cases of \`status\` \`open\` (default) or \`resolved\`, newest first (keyset: \`limit\`, \`cursor\`). Each: \`subject\` (\`type\`, \`id\`, \`excerpt\`: its first 280 characters, a content post's title first, an event's title, a profile's name, a submission's title; \`author\`: who wrote it, hosts the event, the profile itself, or proposed the submission), \`reportCount\`, the distinct \`reasons\`, \`status\`, \`createdAt\`, \`resolvedAt\` and \`resolution\` (\`action\`, \`note\`, \`resolvedBy\`).`
      )
  )
  .add(
    HttpApiEndpoint.post("resolve", "/moderation/cases/:id/resolve")
      .setPath(Schema.Struct({ id: Uuid }))
      .setPayload(Resolution)
      .addSuccess(Ok(Case))
      .addError(declared(InvalidInput, "action_not_supported"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "case_not_found"))
      .addError(declared(Conflict, "case_move"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Resolve a moderation case")
      .annotate(
        OpenApi.Description,
        `${STAFF} \`action\`: \`dismiss\`, \`hide\` or \`remove\`; \`note\` (optional, up to 2000 characters): why, kept in the log. The moderator in \`resolvedBy\` and the log is the caller, also when acting with X-ProfileId. ${ACTIONS} A case is resolved once: \`open -> resolved\`, final; resolving it again answers 409 with \`errors[0].param = "status"\` (two moderators resolving one case at once: one resolution, the other 409). Another community's case: 404. Answers the resolved case.`
      )
  )
  .add(
    HttpApiEndpoint.get("log", "/moderation/log")
      .setUrlParams(PageQuery)
      .addSuccess(Page(LogEntry))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(OpenApi.Summary, "Moderation log")
      .annotate(
        OpenApi.Description,
        `${STAFF} Every moderation action of the community, newest first (keyset: \`limit\`, \`cursor\`), written in the action's transaction: \`action\` (a case's resolution: \`dismiss\`, \`hide\`, \`remove\`; an action on a member, \`subject.type\` \`profile\` and \`caseId\` null: \`suspend\` with \`until\`, \`unsuspend\`, \`ban\`, \`unban\`), \`actor\` (who), \`subject\` (what: type, id and excerpt), \`caseId\`, \`note\` (why) and \`createdAt\` (when).`
      )
  )
  .add(
    HttpApiEndpoint.post("suspend", "/moderation/members/:profileId/suspend")
      .setPath(MemberPath)
      .setPayload(Suspension)
      .addSuccess(Ok(SuspensionState))
      .addError(declared(Forbidden, "only_owner_on_admin", "owner_untouchable", "role_required", "self_action"))
      .addError(declared(NotFound, "member_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Suspend a member")
      .annotate(
        OpenApi.Description,
        `${STAFF} \`days\` (1 to 365) and \`reason\` (1 to 2000 characters, kept in the log): until \`now + days\` the member reads but cannot post (status and content posts), comment, react or take part in events; those routes answer 403 with the end date (\`Sua participação nesta comunidade está suspensa até <ISO date>…\`). Suspending again replaces the end date. ${WHOM} Answers \`profileId\` and \`suspendedUntil\`.`
      )
  )
  .add(
    HttpApiEndpoint.post("unsuspend", "/moderation/members/:profileId/unsuspend")
      .setPath(MemberPath)
      .addSuccess(Ok(SuspensionState))
      .addError(declared(Forbidden, "only_owner_on_admin", "owner_untouchable", "role_required", "self_action"))
      .addError(declared(NotFound, "member_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Lift a member's suspension")
      .annotate(
        OpenApi.Description,
        `${STAFF} Ends the member's suspension now (\`suspendedUntil: null\`; a member who was not suspended answers the same). ${WHOM}`
      )
  )
  .add(
    HttpApiEndpoint.post("ban", "/moderation/members/:profileId/ban")
      .setPath(MemberPath)
      .setPayload(Ban)
      .addSuccess(Ok(BanState))
      .addError(declared(Forbidden, "only_owner_on_admin", "owner_untouchable", "role_required", "self_action"))
      .addError(declared(NotFound, "member_not_found"))
      .addError(declared(Conflict, "already_banned"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Ban a member")
      .annotate(
        OpenApi.Description,
        `${STAFF} \`reason\` (1 to 2000 characters, kept on the profile and in the log). Removes the member as a removal by staff does (\`member.left\` with \`removedAt\`) and bans the account: until \`/unban\` it cannot be invited or added again (409 \`member_banned\` on \`POST /api/profiles/invite\` and \`/create\`) nor join by a purchase (403 \`banned_self\` for the signed-in holder, 409 \`member_banned\` for an anonymous buyer's e-mail). The member gets a \`moderation\` notification (the moderator not named), written before the removal. Banning a banned profile answers 409 \`already_banned\` (\`Este membro já está banido.\`; of two bans at once, one passes) and changes nothing. ${WHOM} Answers \`profileId\`, \`bannedAt\` and \`banReason\`.`
      )
  )
  .add(
    HttpApiEndpoint.post("unban", "/moderation/members/:profileId/unban")
      .setPath(MemberPath)
      .addSuccess(Ok(BanState))
      .addError(declared(Forbidden, "only_owner_on_admin", "owner_untouchable", "role_required", "self_action"))
      .addError(declared(NotFound, "member_not_found"))
      .addError(declared(Conflict, "not_banned"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(OpenApi.Summary, "Lift a ban")
      .annotate(
        OpenApi.Description,
        `${STAFF} Lifts the ban of a profile of this community (\`bannedAt: null\`): the person may be invited, added or join again, but is not made a member (no notification: they are no member to receive one). The role rules are those of the ban, by the role the profile had (an admin's ban is lifted by an owner only). A profile that is not banned: 409 \`not_banned\` (\`Este perfil não está banido.\`); one of another community: 404. Written to the log with who, what and when.`
      )
  )
  .add(pendingEndpoints.list)
  .add(pendingEndpoints.approve)
  .add(pendingEndpoints.reject)
  .middleware(MemberScope)
  .prefix("/api")
{}
