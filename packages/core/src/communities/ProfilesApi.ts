import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Ok, Page } from "../domain/Envelope"
import { Body, Email, HexColor, HttpUrl, Name } from "../domain/Fields"
import { IdParam, Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { Role } from "../domain/Role"
import { BadRequest, Conflict, Forbidden, NotFound, Unauthorized } from "../http/ApiErrors"
import { Authenticated, MemberScope } from "../http/middleware/tags"

export const Tag = Schema.Trim.pipe(
  Schema.filter((value) => (value.length >= 1 && value.length <= 50) || "must be between 1 and 50 characters")
)
const Phone = Schema.Trim.pipe(
  Schema.filter((value) => /^\+?[0-9 ()-]{7,24}$/.test(value) || "must be a phone number such as +55 11 91234-5678")
)

export const Profile = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  accountId: Schema.String,
  email: Schema.String,
  fullName: Schema.String,
  role: Role,
  phone: Schema.NullOr(Schema.String),
  bio: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String),
  tags: Schema.Array(Schema.String),
  createdAt: Schema.String,
  updatedAt: Schema.String
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
    .addError(Forbidden)
    .addError(NotFound)

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
  .add(
    HttpApiEndpoint.post("invite", "/profiles/invite")
      .setPayload(NewProfile)
      .addSuccess(Ok(Profile), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        "Owner or admin. Adds the person (creating the account for a new e-mail) and always e-mails a set-password link valid 7 days. 409 when already a member."
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/profiles/create")
      .setPayload(NewProfile)
      .addSuccess(Ok(Profile), { status: 201 })
      .addError(BadRequest)
      .addError(Forbidden)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        "Owner or admin. An existing account joins with `role` (default member); a new e-mail also creates the account, which is sent a set-password link."
      )
  )
  .add(
    HttpApiEndpoint.get("autocomplete", "/profiles/autocomplete")
      .setUrlParams(Schema.Struct({
        q: Schema.String.pipe(Schema.maxLength(100)),
        limit: Schema.optional(Schema.NumberFromString.pipe(Schema.int(), Schema.between(1, 20)))
      }))
      .addSuccess(Ok(Schema.Array(Profile)))
      .annotate(
        OpenApi.Description,
        "Profiles whose name (any word) or e-mail starts with `q`; at most `limit` (default 10)."
      )
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
      .addError(BadRequest)
  )
  .add(
    HttpApiEndpoint.get("tags", "/profiles/tags")
      .addSuccess(Ok(Schema.Array(TagCount)))
      .annotate(OpenApi.Description, "Tags in use with how many profiles carry each, and their color.")
  )
  .add(
    HttpApiEndpoint.put("renameTag", "/profiles/tags/:tag")
      .setPath(TagParam)
      .setPayload(Body({ name: Tag }))
      .addSuccess(Ok(Changed))
      .addError(Forbidden)
      .addError(NotFound)
      .annotate(
        OpenApi.Description,
        "Owner, admin or moderator. Renames the tag on every profile; where both names are present they merge."
      )
  )
  .add(
    HttpApiEndpoint.del("removeTag", "/profiles/tags/:tag")
      .setPath(TagParam)
      .addSuccess(Ok(Changed))
      .addError(Forbidden)
      .addError(NotFound)
  )
  .add(
    HttpApiEndpoint.put("tagColor", "/profiles/tags/:tag/color")
      .setPath(TagParam)
      .setPayload(Body({ color: HexColor }))
      .addSuccess(Ok(Schema.Struct({ tag: Schema.String, color: Schema.String })))
      .addError(Forbidden)
      .addError(NotFound)
  )
  .add(
    editProfile("email", "/profiles/:id/email", { email: Email })
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        "Changes the login e-mail of the profile's account: the holder, or an owner/admin when the account belongs to no other community."
      )
  )
  .add(editProfile("phone", "/profiles/:id/phone", { phone: Schema.NullOr(Phone) }))
  .add(editProfile("setTags", "/profiles/:id/tags", { tags: Schema.Array(Tag).pipe(Schema.maxItems(50)) }))
  .add(
    editProfile("update", "/profiles/:id", {
      fullName: Schema.optional(Name()),
      bio: Schema.optional(Schema.NullOr(Schema.String.pipe(Schema.maxLength(2000)))),
      avatarUrl: Schema.optional(Schema.NullOr(HttpUrl)),
      phone: Schema.optional(Schema.NullOr(Phone))
    })
      .annotate(OpenApi.Description, "The profile's holder, or an owner/admin.")
  )
  .add(
    HttpApiEndpoint.del("remove", "/profiles/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(Forbidden)
      .addError(NotFound)
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        "Owner or admin (only an owner removes an owner), or the holder leaving. The community always keeps one owner (409)."
      )
  )
  .add(
    editProfile("role", "/profiles/:id/role", { role: Role })
      .addError(Conflict)
      .annotate(
        OpenApi.Description,
        "Only an owner grants or removes `owner`; admins manage moderator/member/finance; nobody changes their own role; one owner always stays."
      )
  )
  .middlewareEndpoints(MemberScope)
  .add(
    HttpApiEndpoint.get("my", "/profiles/my")
      .addSuccess(Ok(Schema.Array(MyProfile)))
      .middleware(Authenticated)
      .annotate(OpenApi.Description, "The account's profiles, one per community. No X-CommunityId.")
  )
  .addError(Unauthorized)
  .prefix("/api")
{}
