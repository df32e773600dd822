import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { CurrentAccount, CurrentMember, CurrentVisitor } from "../../domain/Caller"
import { AnyAppError } from "../ApiErrors"

const bearer = { bearer: HttpApiSecurity.bearer }

/** Requires `Authorization: Bearer <JWT>`; provides the account. */
export class Authenticated extends HttpApiMiddleware.Tag<Authenticated>()("@roda/core/Authenticated", {
  provides: CurrentAccount,
  failure: AnyAppError,
  security: bearer
}) {}

/**
 * Requires a token and the `X-CommunityId` of a community the account is a member of; applies
 * `X-ProfileId`. Provides the member.
 */
export class MemberScope extends HttpApiMiddleware.Tag<MemberScope>()("@roda/core/MemberScope", {
  provides: CurrentMember,
  failure: AnyAppError,
  security: bearer
}) {}

/** Public routes: `X-CommunityId` required, token optional (an invalid one is still refused). */
export class PublicScope extends HttpApiMiddleware.Tag<PublicScope>()("@roda/core/PublicScope", {
  provides: CurrentVisitor,
  failure: AnyAppError
}) {}
