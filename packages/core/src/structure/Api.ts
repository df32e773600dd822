import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Conflict, Forbidden, InvalidInput, NotFound } from "../domain/AppError"
import { Ok, Page } from "../domain/Envelope"
import { declared } from "../domain/Failure"
import { Body, Name } from "../domain/Fields"
import { IdParam, Uuid } from "../domain/Ids"
import { PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { BodyRefused, ParametersRefused, WriteRefused } from "../http/requestFailures"
import { MemberScope, PublicScope } from "../http/Security"
import { availableModuleIds, moduleIds } from "./Modules"

export const VisibilitySchema = OneOf("public", "private", "secret").annotations({
  description: "Most open first: public (anyone), private (members), secret (staff and granted members)"
})
const PostingPolicy = OneOf("members", "staff")
/** A module of the catalogue whose feature exists (`available` in structure/Modules.ts). */
const ModuleId = Schema.String.pipe(
  Schema.maxLength(50, { message: () => `must be one of: ${availableModuleIds.join(", ")}` }),
  Schema.filter((value) =>
    !moduleIds.includes(value)
      ? `must be one of: ${availableModuleIds.join(", ")}`
      : availableModuleIds.includes(value) || `the ${value} module is not available yet`
  )
)
/** Grant ids are checked against the community's plans and products (400 `param: "access"`), not here. */
const GrantIds = Schema.Array(Schema.String.pipe(Schema.maxLength(100))).pipe(Schema.maxItems(100))
const AccessInput = Schema.Struct({
  subscriptionGroupIds: Schema.optional(GrantIds),
  productIds: Schema.optional(GrantIds)
})
const ReorderIds = Schema.Array(Uuid).pipe(Schema.maxItems(1000))

export const Section = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  title: Schema.String,
  visibility: VisibilitySchema,
  position: Schema.Number,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

export const Space = Schema.Struct({
  id: Schema.String,
  communityId: Schema.String,
  sectionId: Schema.String,
  title: Schema.String,
  module: Schema.String,
  visibility: VisibilitySchema,
  access: Schema.Struct({ subscriptionGroupIds: Schema.Array(Schema.String), productIds: Schema.Array(Schema.String) }),
  postingPolicy: PostingPolicy,
  position: Schema.Number,
  /** Whether the caller may read the space's content (courses, lessons, events, posts). */
  canReadContent: Schema.Boolean,
  createdAt: Schema.String,
  updatedAt: Schema.String
})

const ModuleCategory = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  modules: Schema.Array(Schema.Struct({
    id: Schema.String,
    name: Schema.String,
    description: Schema.String,
    /** Whether spaces of this module may be created now (false: the feature is not built yet). */
    available: Schema.Boolean
  }))
})

/** `GET /api/spaces/modules`'s answer. */
export const ModulesAnswer = Ok(Schema.Array(ModuleCategory))

const SectionFields = {
  title: Name(200),
  visibility: Schema.optional(VisibilitySchema)
}

const SpaceFields = {
  /** Validated by the service, so that a missing or unknown section gets the spec §7 message. */
  sectionId: Schema.optional(Schema.String.pipe(Schema.maxLength(100))),
  title: Name(200),
  module: ModuleId,
  visibility: Schema.optional(VisibilitySchema),
  access: Schema.optional(AccessInput),
  postingPolicy: Schema.optional(PostingPolicy)
}

const STAFF = "Owner, admin or moderator."
const SPACE_RULES = "A space is never more open than its section (400 `This space cannot be more open than " +
  "the section \"…\" (…).`, param `visibility`). `sectionId` must be a section of this community (400 `Seção não " +
  "encontrada ou não pertence a esta comunidade.`). Every access grant (`subscriptionGroupIds`: plans, " +
  "`productIds`: products) must exist in the community (400 `The access grant … does not exist in this " +
  "community.`, param `access`); a member reads the content of a space with grants only with a valid " +
  "entitlement from one of them. `module` must be an `available` module of `GET /api/spaces/modules` (400 " +
  "`the … module is not available yet`, param `module`, for `certificates` and `call4papers` until those " +
  "features exist). Unknown keys, inside `access` too, answer 400 (param = the key's path, e.g. `access.foo`)."
const VISIBILITY_RULES = "Staff see everything; members see public and private spaces, and secret ones only " +
  "with an entitlement from one of their grants; without a token (or as a non-member) only public spaces of " +
  "public sections. `canReadContent` tells whether the caller may read the space's content."

export class SectionsApi extends HttpApiGroup.make("sections")
  .annotateContext(OpenApi.annotations({
    title: "Sections",
    description: "Sections group the spaces of a community, in order, each with a visibility."
  }))
  .add(
    HttpApiEndpoint.get("list", "/sections")
      .setUrlParams(PageQuery)
      .addSuccess(Page(Section))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public. Sections in order (position, then id), keyset-paginated. Anonymous callers see public sections; " +
          "members public and private ones, and a secret one only when they can see a space in it; staff all."
      )
      .annotate(OpenApi.Summary, "List sections")
  )
  .add(
    HttpApiEndpoint.post("create", "/sections")
      .setPayload(Body(SectionFields))
      .addSuccess(Ok(Section), { status: 201 })
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "section_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} The section goes last; \`visibility\` defaults to public.`
      )
      .annotate(OpenApi.Summary, "Create a section")
  )
  .add(
    HttpApiEndpoint.post("reorder", "/sections/reorder")
      .setPayload(Body({ ids: ReorderIds }))
      .addSuccess(Ok(Schema.Array(Section)))
      .addError(declared(InvalidInput, "sections_reorder_mismatch"))
      .addError(declared(Forbidden, "role_required"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} \`ids\` is every section of the community, each once, in the new order (400 otherwise, ` +
          "param `ids`). Answers the sections in the new order."
      )
      .annotate(OpenApi.Summary, "Reorder sections")
  )
  .add(
    HttpApiEndpoint.get("get", "/sections/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Section))
      .addError(declared(NotFound, "section_not_found"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(OpenApi.Description, "Public. A section the caller may see (as in the list); 404 otherwise.")
      .annotate(OpenApi.Summary, "Get a section")
  )
  .add(
    HttpApiEndpoint.put("update", "/sections/:id")
      .setPath(IdParam)
      .setPayload(Body({ title: Schema.optional(SectionFields.title), visibility: SectionFields.visibility }))
      .addSuccess(Ok(Section))
      .addError(declared(InvalidInput, "section_more_closed"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "section_not_found"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Partial. Opening a section is always allowed; closing it below one of its spaces is refused ` +
          "(400 `This space cannot be more open than the section …`, param `visibility`): close the spaces first."
      )
      .annotate(OpenApi.Summary, "Update a section")
  )
  .add(
    HttpApiEndpoint.del("remove", "/sections/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "section_not_found"))
      .addError(declared(Conflict, "section_has_spaces"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Only an empty section is removed: while it holds spaces the answer is 409 (move or remove ` +
          "them first), so no content is ever removed by accident."
      )
      .annotate(OpenApi.Summary, "Delete a section")
  )
  .prefix("/api")
{}

export class SpacesApi extends HttpApiGroup.make("spaces")
  .annotateContext(OpenApi.annotations({
    title: "Spaces",
    description:
      "Spaces hold content of one module (courses, events, feed, call4papers…) inside a section, with access rules."
  }))
  .add(
    HttpApiEndpoint.get("list", "/spaces")
      .setUrlParams(Schema.Struct({ ...PageQuery.fields, sectionId: Schema.optional(Uuid) }))
      .addSuccess(Page(Space))
      .addError(declared(InvalidInput, "invalid_input"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public. Spaces the caller may see, in navigation order (section position, then space position, then " +
          `id), keyset-paginated; \`sectionId\` keeps one section. ${VISIBILITY_RULES}`
      )
      .annotate(OpenApi.Summary, "List spaces")
  )
  .add(
    HttpApiEndpoint.get("modules", "/spaces/modules")
      .addSuccess(ModulesAnswer)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        "Public. The catalogue of space modules by category; a space's `module` is one of these ids. Every module is listed; `available: false` would mark a module whose feature does not exist yet (none today: every listed module is available): creating or moving a space to it answers 400 (param `module`). The flag lives in one place (structure/Modules.ts)."
      )
      .annotate(OpenApi.Summary, "List space modules")
  )
  .add(
    HttpApiEndpoint.post("create", "/spaces")
      .setPayload(Body(SpaceFields))
      .addSuccess(Ok(Space), { status: 201 })
      .addError(declared(InvalidInput, "access_grant_unknown", "section_of_space_not_found", "space_more_open"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "space_unknown"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} The space goes last in its section; \`visibility\` defaults to the section's, ` +
          `\`postingPolicy\` (who posts in it: members or staff) to members. ${SPACE_RULES}`
      )
      .annotate(OpenApi.Summary, "Create a space")
  )
  .add(
    HttpApiEndpoint.post("reorder", "/spaces/reorder")
      .setPayload(Body({ sectionId: SpaceFields.sectionId, ids: ReorderIds }))
      .addSuccess(Ok(Schema.Array(Space)))
      .addError(declared(InvalidInput, "section_of_space_not_found", "spaces_reorder_mismatch"))
      .addError(declared(Forbidden, "role_required"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Reorders the spaces of one section: \`ids\` is every space of \`sectionId\`, each once, in the ` +
          "new order (400 otherwise, param `ids`). Answers the section's spaces in the new order."
      )
      .annotate(OpenApi.Summary, "Reorder the spaces of a section")
  )
  .add(
    HttpApiEndpoint.get("get", "/spaces/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Space))
      .addError(declared(NotFound, "space_unknown"))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(OpenApi.Description, `Public. A space the caller may see; 404 otherwise. ${VISIBILITY_RULES}`)
      .annotate(OpenApi.Summary, "Get a space")
  )
  .add(
    HttpApiEndpoint.put("update", "/spaces/:id")
      .setPath(IdParam)
      .setPayload(
        Body({ ...SpaceFields, title: Schema.optional(SpaceFields.title), module: Schema.optional(ModuleId) })
      )
      .addSuccess(Ok(Space))
      .addError(declared(InvalidInput, "access_grant_unknown", "section_of_space_not_found", "space_more_open"))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "space_unknown"))
      .addError(BodyRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Partial, access included (a list sent replaces that list). A new \`sectionId\` moves the ` +
          `space to the end of that section. ${SPACE_RULES}`
      )
      .annotate(OpenApi.Summary, "Update a space")
  )
  .add(
    HttpApiEndpoint.del("remove", "/spaces/:id")
      .setPath(IdParam)
      .addSuccess(Ok(Schema.Null))
      .addError(declared(Forbidden, "role_required"))
      .addError(declared(NotFound, "space_unknown"))
      .addError(declared(Conflict, "space_has_content"))
      .addError(ParametersRefused)
      .addError(WriteRefused)
      .middleware(MemberScope)
      .annotate(
        OpenApi.Description,
        `${STAFF} Removes the space; 409 while content (such as courses) still belongs to it.`
      )
      .annotate(OpenApi.Summary, "Delete a space")
  )
  .prefix("/api")
{}
