import { HttpApiMiddleware, HttpApiSecurity, HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { badRequest, fieldError } from "../domain/AppError"
import {
  CurrentAccount,
  CurrentDeferredMember,
  CurrentDeferredVisitor,
  CurrentMember,
  CurrentVisitor
} from "../domain/Caller"
import { CommunityId, isUuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { AuthenticatedFailure, MemberScopeFailure, PublicScopeFailure } from "../domain/ScopeFailures"

const bearer = { bearer: HttpApiSecurity.bearer }

/** Requires `Authorization: Bearer <JWT>`; provides the account. */
export class Authenticated extends HttpApiMiddleware.Tag<Authenticated>()("@roda/core/Authenticated", {
  provides: CurrentAccount,
  failure: AuthenticatedFailure,
  security: bearer
}) {}

/**
 * Requires a token and the `X-CommunityId` of a community the account is a member of; applies
 * `X-ProfileId`. Provides the member.
 */
export class MemberScope extends HttpApiMiddleware.Tag<MemberScope>()("@roda/core/MemberScope", {
  provides: CurrentMember,
  failure: MemberScopeFailure,
  security: bearer
}) {}

/**
 * MemberScope for a route that reads the membership in its own statement (`DeferredMember`): the same
 * rules, answers and order, one round trip fewer.
 */
export class DeferredMemberScope
  extends HttpApiMiddleware.Tag<DeferredMemberScope>()("@roda/core/DeferredMemberScope", {
    provides: CurrentDeferredMember,
    failure: MemberScopeFailure,
    security: bearer
  })
{}

/** Public routes: `X-CommunityId` required, token optional (an invalid one is still refused). */
export class PublicScope extends HttpApiMiddleware.Tag<PublicScope>()("@roda/core/PublicScope", {
  provides: CurrentVisitor,
  failure: PublicScopeFailure
}) {}

/**
 * PublicScope for a route that reads the caller in its own statement (`DeferredVisitor`): the same
 * rules, answers and order, one round trip fewer for a caller with a token.
 */
export class DeferredPublicScope
  extends HttpApiMiddleware.Tag<DeferredPublicScope>()("@roda/core/DeferredPublicScope", {
    provides: CurrentDeferredVisitor,
    failure: PublicScopeFailure
  })
{}

/** `X-CommunityId`: a valid id, or 400 with `errors[0].param = "X-CommunityId"` (spec §7). */
export const communityIdHeader = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
  const value = request.headers["x-communityid"]?.trim()
  if (value === undefined || !isUuid(value)) {
    return Effect.fail(
      badRequest(Messages.communityHeaderMissing, [
        fieldError("X-CommunityId", Messages.communityHeaderParam, "headers")
      ])
    )
  }
  return Effect.succeed(CommunityId.make(value.toLowerCase()))
})
