import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Ok } from "../../domain/Envelope"
import { ParametersRefused, WriteRefused } from "../../http/requestFailures"
import { MemberScope } from "../../http/Security"
import { Call, CallIdParam } from "./schemas"
export const ORGANISER =
  "Organisers only: owner, admin or moderator of the community, or an accepted owner of the call (403 otherwise)."
export const SEE_CALL =
  "A call is read through its space's access rules (403 or 404); a draft is seen only by its organisers (404 for anyone else), a soft-deleted call by nobody (404)."

export const lifecycle = <const Name extends string>(name: Name, path: string, move: string) =>
  HttpApiEndpoint.post(name, `/call4papers/:id/${path}`)
    .setPath(CallIdParam)
    .addSuccess(Ok(Call))
    .addError(ParametersRefused)
    .addError(WriteRefused)
    .middleware(MemberScope)
    .annotate(
      OpenApi.Description,
      `${ORGANISER} ${move} From any other state: 409 with \`errors[0].param = "status"\` and the allowed moves.`
    )
