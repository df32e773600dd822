import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Forbidden, InvalidInput, NotFound } from "../../domain/AppError"
import { Ok, Page } from "../../domain/Envelope"
import { declared } from "../../domain/Failure"
import { Body } from "../../domain/Fields"
import { BodyRefused, ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope, PublicScope } from "../../http/Security"
import { SEE_CALL } from "./endpointKinds"
import { Call, CallDetail, CallQuery, SlugParam, SpaceConfig, SpaceIdParam, SpaceMode } from "./schemas"

/** A call4papers space: its configuration, its calls, a call by slug. */
export const spaceConfig = HttpApiEndpoint.get("spaceConfig", "/call4papers/spaces/:spaceId")
  .setPath(SpaceIdParam)
  .addSuccess(Ok(SpaceConfig))
  .addError(declared(Forbidden, "space_content_forbidden"))
  .addError(declared(NotFound, "not_a_call_space", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(PublicScope)
  .annotate(
    OpenApi.Description,
    "Public (token optional). The configuration of a call4papers space: `mode` (`organisers`: only owner, admin or moderator open calls; `members`: any member may open one and becomes its owner; default `organisers`), and what the caller may do (`canOpenCall`, `canConfigure`). A space hidden from the caller, of another community, or of another module answers 404."
  )
  .annotate(OpenApi.Summary, "Get a call-for-papers space's configuration")

export const configureSpace = HttpApiEndpoint.put("configureSpace", "/call4papers/spaces/:spaceId")
  .setPath(SpaceIdParam)
  .setPayload(Body({ mode: SpaceMode }))
  .addSuccess(Ok(SpaceConfig))
  .addError(declared(Forbidden, "role_required", "space_content_forbidden"))
  .addError(declared(NotFound, "not_a_call_space", "space_unknown"))
  .addError(BodyRefused)
  .addError(WriteRefused)
  .middleware(MemberScope)
  .annotate(OpenApi.Description, "Owner, admin or moderator. Sets the space mode (`organisers` or `members`).")
  .annotate(OpenApi.Summary, "Configure a call-for-papers space")

export const spaceCalls = HttpApiEndpoint.get("spaceCalls", "/call4papers/spaces/:spaceId/calls")
  .setPath(SpaceIdParam)
  .setUrlParams(CallQuery)
  .addSuccess(Page(Call))
  .addError(declared(InvalidInput, "invalid_input"))
  .addError(declared(Forbidden, "space_content_forbidden"))
  .addError(declared(NotFound, "not_a_call_space", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(PublicScope)
  .annotate(
    OpenApi.Description,
    "Public (token optional). The calls of a space, newest first (keyset: `limit`, `cursor`; `status` filters). Anonymous callers and members see published and closed calls; drafts only staff and the call's owners. The space's access rules apply (403 or 404)."
  )
  .annotate(OpenApi.Summary, "List a space's calls")

export const callBySlug = HttpApiEndpoint.get("callBySlug", "/call4papers/spaces/:spaceId/calls/:slug")
  .setPath(SlugParam)
  .addSuccess(Ok(CallDetail))
  .addError(declared(Forbidden, "space_content_forbidden"))
  .addError(declared(NotFound, "call_not_found", "not_a_call_space", "space_unknown"))
  .addError(ParametersRefused)
  .middleware(PublicScope)
  .annotate(OpenApi.Description, `Public (token optional). A call by its slug in the space. ${SEE_CALL}`)
  .annotate(OpenApi.Summary, "Get a call by slug")
