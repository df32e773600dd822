import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, Email, HexColor, Hostname, HttpUrl, Name, Slug, TimeZone, Trimmed } from "../domain/Fields"
import { IdParam } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf, Role } from "../domain/Role"
import { isOneWord, normalizeWords } from "../domain/words"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { Authenticated, MemberScope } from "../http/Security"
import { Profile } from "./ProfilesApi"

const BlockedWord = Trimmed(50, "must be at most 50 characters").pipe(
  Schema.minLength(1, { message: () => "must not be empty" }),
  Schema.filter((word) => isOneWord(word) || "must be one word (letters and digits)")
)

/** The `moderation` settings (platform.md "Moderation"); each field left out keeps its value. */
export const ModerationSettings = Schema.Struct({
  /** The first n posts and comments of a member (not staff) wait for approval; 0: none. */
  holdFirstPosts: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 20))),
  /** Posts and comments with one of these whole words wait for approval (stored normalized). */
  blockedWords: Schema.optional(
    Schema.transform(
      Schema.Array(BlockedWord).pipe(Schema.maxItems(200, { message: () => "must have at most 200 words" })),
      Schema.Array(Schema.String),
      { strict: true, decode: (words) => [...new Set(words.map(normalizeWords))], encode: (words) => words }
    )
  ),
  slowModeSeconds: Schema.optional(Schema.Number.pipe(Schema.int(), Schema.between(0, 3600))).annotations({
    description:
      "Slow mode: a member (not owner, admin or moderator) publishes at most one content post (`POST /api/content`) per this many seconds in each space (0 to 3600; 0 or absent: off). Counted per account, space and community from the first post of a window, in the database (parallel posts: one passes); a post too soon answers 429 with `Retry-After` (seconds left) and `RateLimit-Policy: \"slowMode\";q=1;w=<seconds>`. Status posts (no space) and comments are not slowed (the `posting` limit counts them)."
  })
})

export const CommunitySettings = Body({
  description: Schema.optional(Schema.String.pipe(Schema.maxLength(2000))),
  logoUrl: Schema.optional(Schema.NullOr(HttpUrl)),
  coverUrl: Schema.optional(Schema.NullOr(HttpUrl)),
  primaryColor: Schema.optional(HexColor),
  language: Schema.optional(OneOf("pt-BR", "en")),
  timezone: Schema.optional(TimeZone),
  membersCanInvite: Schema.optional(Schema.Boolean),
  /** Whether anonymous visitors see status posts (`GET /api/status`, the feed); default false. */
  publicStatusPosts: Schema.optional(Schema.Boolean),
  moderation: Schema.optional(ModerationSettings)
})

export const Community = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  customDomain: Schema.NullOr(Schema.String),
  settings: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const MyCommunity = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  customDomain: Schema.NullOr(Schema.String),
  role: Role,
  profileId: Schema.String
})

export const CreateCommunity = Body({
  name: Name(120),
  slug: Schema.optional(Slug),
  customDomain: Schema.optional(Schema.NullOr(Hostname))
})

export const UpdateCommunity = Body({
  name: Schema.optional(Name(120)),
  slug: Schema.optional(Slug),
  customDomain: Schema.optional(Schema.NullOr(Hostname))
})

const NotificationSettings = Schema.Struct({
  salesEmail: Schema.NullOr(Schema.String),
  updatedAt: Schema.NullOr(Schema.String)
})

export class CommunitiesApi extends HttpApiGroup.make("communities")
  .annotateContext(OpenApi.annotations({
    title: "Communities",
    description: "Creating, resolving, updating and retiring communities; their settings and members."
  }))
  .add(
    HttpApiEndpoint.post("create", "/communities")
      .setPayload(CreateCommunity)
      .addSuccess(Ok(MyCommunity), { status: 201 })
      .addError(declared(Conflict, "domain_taken", "slug_taken"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(Authenticated)
      .annotate(
        OpenApi.Description,
        "Creates a community; the creator becomes its owner. No X-CommunityId. The slug is generated from the name when absent."
      )
      .annotate(OpenApi.Summary, "Create a community")
  )
  .add(
    HttpApiEndpoint.get("my", "/communities/my")
      .addSuccess(Ok(Schema.Array(MyCommunity)))
      .middleware(Authenticated)
      .annotate(OpenApi.Description, "Communities of the account with its role in each. No X-CommunityId.")
      .annotate(OpenApi.Summary, "List the caller's communities")
  )
  .add(
    HttpApiEndpoint.post("resolveDomain", "/communities/domain")
      .setPayload(
        Body({
          domain: Schema.compose(Trimmed(253), Schema.Lowercase).pipe(Schema.minLength(1), Schema.maxLength(253))
        })
      )
      .addSuccess(Ok(Community))
      .addError(declared(NotFound, "community_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .annotate(
        OpenApi.Description,
        "Public. Resolves a custom domain or a slug to the community's public data. X-CommunityId is not needed: finding the community is the purpose of this call."
      )
      .annotate(OpenApi.Summary, "Resolve a domain or slug to a community")
  )
  .add(
    HttpApiEndpoint.put("update", "/communities/:id")
      .setPath(IdParam)
      .setPayload(UpdateCommunity)
      .addSuccess(Ok(Community))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(declared(Conflict, "domain_taken", "slug_taken"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Owner only. X-CommunityId must name the same community (another one answers 404)."
      )
      .annotate(OpenApi.Summary, "Update a community")
  )
  .add(
    HttpApiEndpoint.del("remove", "/communities/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Owner only. The community is retired (soft delete): its data is kept, it is no longer reachable and its slug and domain are freed."
      )
      .annotate(OpenApi.Summary, "Delete a community")
  )
  .add(
    HttpApiEndpoint.get("members", "/communities/:id/members")
      .setPath(IdParam)
      .setUrlParams(PageQuery)
      .addSuccess(Page(Profile))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(ParametersRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Accepted members, any member may read. Staff (owner, admin, moderator) see e-mail, phone, accountId and tags; other members see the public view (id, communityId, fullName, role, status, bio, avatarUrl, dates), their own profile in full."
      )
      .annotate(OpenApi.Summary, "List a community's members")
  )
  .add(
    HttpApiEndpoint.patch("settings", "/communities/:id/settings")
      .setPath(IdParam)
      .setPayload(CommunitySettings)
      .addSuccess(Ok(Community))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "community_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, "Owner or admin. Partial: only the fields sent change.")
      .annotate(OpenApi.Summary, "Update community settings")
  )
  .add(
    HttpApiEndpoint.get("notificationSettings", "/notification-settings")
      .addSuccess(Ok(NotificationSettings))
      .addError(declared(Forbidden, "role_required"))
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        "Owner or admin. The e-mail that receives sales notices (`salesEmail`, null when none)."
      )
      .annotate(OpenApi.Summary, "Get notification settings")
  )
  .add(
    HttpApiEndpoint.put("setNotificationSettings", "/notification-settings")
      .setPayload(Body({ salesEmail: Schema.NullOr(Email) }))
      .addSuccess(Ok(NotificationSettings))
      .addError(declared(Forbidden, "role_required"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(OpenApi.Description, "Owner or admin. Sets the e-mail that receives sales notices (null stops them).")
      .annotate(OpenApi.Summary, "Set notification settings")
  )
  .prefix("/api")
{}
