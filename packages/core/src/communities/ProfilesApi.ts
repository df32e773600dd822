import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { RateLimitPolicy } from "../api/rateLimitHeaders"
import { Conflict, Forbidden, InvalidInput, NotFound, RateLimited } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, Email, HexColor, HttpUrl, Name, Trimmed } from "../domain/Fields"
import { IdParam, Uuid } from "../domain/Ids"
import { PageQuery, QueryInteger } from "../domain/Pagination"
import { Role } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { Authenticated, MemberScope } from "../http/Security"

export const Tag = Trimmed(50, "must be between 1 and 50 characters").pipe(
  Schema.filter((value) => (value.length >= 1 && value.length <= 50) || "must be between 1 and 50 characters")
)
const Phone = Trimmed(24, "must be a phone number such as +55 11 91234-5678").pipe(
  Schema.filter((value) => /^\+?[0-9 ()-]{7,24}$/.test(value) || "must be a phone number such as +55 11 91234-5678")
)

/**
 * A profile. `accountId`, `email` (the login e-mail), `phone` and `tags` are personal: present only
 * for staff (owner, admin, moderator) and on the holder's own profile; other members see the public
 * view. `status`: `active`, or `invited` until the holder accepts.
 */
export const Profile = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  accountId: Schema.optional(Schema.String),
  email: Schema.optional(Schema.String),
  fullName: Schema.String,
  role: Role,
  status: Schema.Literal("active", "invited"),
  phone: Schema.optional(Schema.NullOr(Schema.String)),
  bio: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String),
  tags: Schema.optional(Schema.Array(Schema.String)),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const EmailChange = Schema.Struct({
  ...Profile.fields,
  /** The address waiting for its confirmation link to be used; null when it already was the login. */
  pendingEmail: Schema.NullOr(Schema.String)
})

/** `PUT /profiles/{id}…`: changes one profile and answers it. */
const editProfile = <const Name extends string, Fields extends Schema.Struct.Fields>(
  name: Name,
  path: `/profiles/:id${string}`,
  fields: Fields
) =>
  HttpApiEndpoint.put(name, path)
    .setPath(IdParam)
    .setPayload(Body(fields))
    .addSuccess(Ok(Profile))
    .addError(BodyRefused)
    .addError(WriteRefused)

const MyProfile = Schema.Struct({
  ...Profile.fields,
  community: Schema.Struct({ id: Schema.String, name: Schema.String, slug: Schema.String })
})

export const NewProfile = Body({
  email: Email,
  fullName: Schema.optional(Name()),
  role: Schema.optional(Role),
  communityId: Schema.optional(Uuid)
})

const TagParam = Schema.Struct({ tag: Tag })
const TagCount = Schema.Struct({ tag: Schema.String, count: Schema.Number, color: Schema.NullOr(Schema.String) })
const Changed = Schema.Struct({ profilesChanged: Schema.Number })

export class ProfilesApi extends HttpApiGroup.make("profiles")
  .annotateContext(OpenApi.annotations({
    title: "Profiles",
    description: "Members of a community: invitations, the directory, roles, tags and the caller's own profiles."
  }))
  .add(
    HttpApiEndpoint.post("invite", "/profiles/invite")
      .setPayload(NewProfile)
      .addSuccess(Ok(Profile), { status: 201 })
      .addError(
        declared(
          Forbidden,
          "admins_manage_lower_roles",
          "banned_self",
          "email_not_verified",
          "only_owner_manages_owners",
          "role_required"
        )
      )
      .addError(declared(NotFound, "profile_not_found"))
      .addError(declared(Conflict, "already_invited", "already_member", "email_taken", "member_banned"))
      .addError(declared(RateLimited, "rate_limited"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(RateLimitPolicy, "invite")
      .annotate(
        OpenApi.Description,
        "Owner or admin; also any member when the community setting `membersCanInvite` is true (then only with role `member`: another role answers 403, as does any call of a non-manager when the setting is false or absent). A new e-mail creates the account with an active profile and e-mails a set-password link valid 7 days. An existing account (a removed member included) is never made a member without consent: 201 with `data.status: \"invited\"`, an invitation e-mail (with a set-password link if the account has no password yet), accepted or declined by the holder with POST /api/profiles/{id}/accept|decline. 409 when already a member or already invited; 409 `member_banned` when moderation banned the account from the community (`Esta pessoa foi banida da comunidade: desfaça o banimento antes de adicioná-la ou convidá-la.`) until `POST /api/moderation/members/{profileId}/unban`. The caller's e-mail must be confirmed (403 `Confirme seu e-mail antes…` otherwise; issue 52)."
      )
      .annotate(OpenApi.Summary, "Invite a member")
  )
  .add(
    HttpApiEndpoint.post("create", "/profiles/create")
      .setPayload(NewProfile)
      .addSuccess(Ok(Profile), { status: 201 })
      .addError(
        declared(
          Forbidden,
          "admins_manage_lower_roles",
          "banned_self",
          "email_not_verified",
          "only_owner_manages_owners",
          "role_required"
        )
      )
      .addError(declared(NotFound, "profile_not_found"))
      .addError(declared(Conflict, "already_invited", "already_member", "email_taken", "member_banned"))
      .addError(declared(RateLimited, "rate_limited"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(RateLimitPolicy, "invite")
      .annotate(
        OpenApi.Description,
        "Owner or admin. A new e-mail creates the account and its active profile with `role` (default member), and the account is sent a set-password link. An existing account gets an invitation instead (201, `data.status: \"invited\"`, an e-mail; see /invite): it is no member until it accepts. 409 when already a member or already invited; 409 `member_banned` when moderation banned the account from the community (`Esta pessoa foi banida da comunidade: desfaça o banimento antes de adicioná-la ou convidá-la.`) until `POST /api/moderation/members/{profileId}/unban`. The caller's e-mail must be confirmed (403 `Confirme seu e-mail antes…` otherwise; issue 52)."
      )
      .annotate(OpenApi.Summary, "Add a member")
  )
  .add(
    HttpApiEndpoint.get("autocomplete", "/profiles/autocomplete")
      .setUrlParams(Schema.Struct({
        q: Schema.String.pipe(Schema.maxLength(100)),
        limit: Schema.optional(
          QueryInteger("limit", {
            min: 1,
            max: 20,
            default: 10,
            description: "How many members to list, 1 to 20 (default 10)."
          })
        )
      }))
      .addSuccess(Ok(Schema.Array(Profile)))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        "Members whose name (any word) starts with `q` (staff: or whose e-mail does); at most `limit` (default 10). Invited people are not members and are not listed. Personal fields (accountId, email, phone, tags) only for staff and the caller's own profile."
      )
      .annotate(OpenApi.Summary, "Autocomplete members by name")
  )
  .add(
    HttpApiEndpoint.get("list", "/profiles/list")
      .setUrlParams(Schema.Struct({
        ...PageQuery.fields,
        role: Schema.optional(Role),
        tag: Schema.optional(Tag),
        search: Schema.optional(Schema.String.pipe(Schema.maxLength(100)))
      }))
      .addSuccess(Page(Profile))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(ParametersRefused)
      .annotate(
        OpenApi.Description,
        "Accepted members only (invitations are not listed). Staff (owner, admin, moderator) see every field and `search` matches names and e-mails; other members get the public view (id, communityId, fullName, role, status, bio, avatarUrl, dates; their own profile in full) and `search` matches names only; `tag` is a staff filter (tags are personal: another role gets 403)."
      )
      .annotate(OpenApi.Summary, "List members")
  )
  .add(
    HttpApiEndpoint.get("tags", "/profiles/tags")
      .addSuccess(Ok(Schema.Array(TagCount)))
      .annotate(OpenApi.Description, "Tags in use with how many profiles carry each, and their color.")
      .annotate(OpenApi.Summary, "List profile tags")
  )
  .add(
    HttpApiEndpoint.put("renameTag", "/profiles/tags/:tag")
      .setPath(TagParam)
      .setPayload(Body({ name: Tag }))
      .addSuccess(Ok(Changed))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "tag_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Renames the tag on every profile; where both names are present they merge."
      )
      .annotate(OpenApi.Summary, "Rename a tag")
  )
  .add(
    HttpApiEndpoint.del("removeTag", "/profiles/tags/:tag")
      .setPath(TagParam)
      .addSuccess(Ok(Changed))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "tag_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Removes the tag (and its color) from every profile of the community; 404 when no profile carries it."
      )
      .annotate(OpenApi.Summary, "Remove a tag from every profile")
  )
  .add(
    HttpApiEndpoint.put("tagColor", "/profiles/tags/:tag/color")
      .setPath(TagParam)
      .setPayload(Body({ color: HexColor }))
      .addSuccess(Ok(Schema.Struct({ tag: Schema.String, color: Schema.String })))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "tag_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. `color` is `#rrggbb` (kept in lower case); 404 when no profile carries the tag."
      )
      .annotate(OpenApi.Summary, "Set a tag's color")
  )
  .add(
    HttpApiEndpoint.put("email", "/profiles/:id/email")
      .setPath(IdParam)
      .setPayload(Body({ email: Email, currentPassword: Schema.String.pipe(Schema.maxLength(200)) }))
      .addSuccess(Ok(EmailChange), { status: 202 })
      .addError(declared(InvalidInput, "current_password_wrong"))
      .addError(declared(Forbidden, "email_only_by_holder"))
      .addError(declared(NotFound, "profile_not_found"))
      .addError(declared(Conflict, "email_taken"))
      .addError(declared(RateLimited, "too_many_attempts"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Only the holder, on their own profile (anyone else, staff included, 403: staff edit community fields, never the login). Nothing changes yet: 202 with the profile as it is and `pendingEmail`; the new address gets a confirmation link (24 hours) to use with POST /api/auth/confirm-email, the old address a notice with a link (7 days, used through the same route) that takes the change back and ends every session and OAuth grant of the account. `currentPassword` is required (400 `errors[].param` `currentPassword` when missing or wrong, checked before anything else and limited as change-password is: 429 with Retry-After). The change, which also verifies the new address, happens when the link is used. 409 when another account has the address (checked again at confirmation). The same address as now answers 202 with `pendingEmail: null`."
      )
      .annotate(OpenApi.Summary, "Change the login e-mail")
  )
  .add(
    editProfile("phone", "/profiles/:id/phone", { phone: Schema.NullOr(Phone) })
      .addError(declared(Forbidden, "admins_manage_lower_roles", "role_required"))
      .addError(declared(NotFound, "profile_not_found"))
      .annotate(OpenApi.Description, "The profile's holder, or an owner/admin. `null` clears the phone.")
      .annotate(OpenApi.Summary, "Change a profile's phone")
  )
  .add(
    editProfile("setTags", "/profiles/:id/tags", { tags: Schema.Array(Tag).pipe(Schema.maxItems(50)) })
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "profile_not_found"))
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Replaces the profile's tags (at most 50, duplicates dropped)."
      )
      .annotate(OpenApi.Summary, "Set a profile's tags")
  )
  .add(
    editProfile("update", "/profiles/:id", {
      fullName: Schema.optional(Name()),
      bio: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000)))),
      avatarUrl: Schema.optional(Schema.NullOr(HttpUrl)),
      phone: Schema.optional(Schema.NullOr(Phone))
    })
      .addError(declared(Forbidden, "admins_manage_lower_roles", "role_required"))
      .addError(declared(NotFound, "profile_not_found"))
      .annotate(OpenApi.Description, "The profile's holder, or an owner/admin.")
      .annotate(OpenApi.Summary, "Update a profile")
  )
  .add(
    HttpApiEndpoint.del("remove", "/profiles/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "admins_manage_lower_roles", "only_owner_manages_owners", "role_required"))
      .addError(declared(NotFound, "profile_not_found"))
      .addError(declared(Conflict, "last_owner"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Owner or admin (only an owner removes an owner), or the holder leaving. The community always keeps one owner (409)."
      )
      .annotate(OpenApi.Summary, "Remove a profile from the community")
  )
  .add(
    editProfile("role", "/profiles/:id/role", { role: Role })
      .addError(
        declared(
          Forbidden,
          "admins_manage_lower_roles",
          "only_owner_manages_owners",
          "own_role_change",
          "role_required"
        )
      )
      .addError(declared(NotFound, "profile_not_found"))
      .addError(declared(Conflict, "last_owner"))
      .annotate(
        OpenApi.Description,
        "Only an owner grants or removes `owner`; admins manage moderator/member/finance; nobody changes their own role; one owner always stays."
      )
      .annotate(OpenApi.Summary, "Change a profile's role")
  )
  .middlewareEndpoints(MemberScope)
  .add(
    HttpApiEndpoint.get("my", "/profiles/my")
      .addSuccess(Ok(Schema.Array(MyProfile)))
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "The account's profiles, one per community, open invitations included (`status: \"invited\"`). No X-CommunityId."
      )
      .annotate(OpenApi.Summary, "List the caller's profiles")
  )
  .add(
    HttpApiEndpoint.post("accept", "/profiles/:id/accept")
      .setPath(IdParam)
      .addSuccess(Ok(Profile))
      .addError(declared(InvalidInput, "community_header_missing"))
      .addError(declared(NotFound, "invitation_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "The invited holder's token and the X-CommunityId of the inviting community (the caller is not a member yet, so no membership is required): the profile becomes active and the account a member. Accepting an already accepted own profile answers it again. 404 for anyone else's profile or another community's."
      )
      .annotate(OpenApi.Summary, "Accept an invitation")
  )
  .add(
    HttpApiEndpoint.post("decline", "/profiles/:id/decline")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(InvalidInput, "community_header_missing"))
      .addError(declared(NotFound, "invitation_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "The invited holder's token and the X-CommunityId of the inviting community: the invitation is removed (inviting again is possible). 404 when there is no open invitation of the caller with this id (a member leaves with DELETE /api/profiles/{id})."
      )
      .annotate(OpenApi.Summary, "Decline an invitation")
  )
  .prefix("/api")
{}
