import { Clock, Effect, Layer, Option } from "effect"
import { forbidden, invalidField, NotFound, notFound } from "../domain/AppError"
import { orNotFound } from "../domain/found"
import { type CommunityId, isUuid } from "../domain/Ids"
import { Messages } from "../domain/Messages"
import { isStaff } from "../domain/Role"
import { traced } from "../platform/traced"
import {
  Access,
  type CallerColumns,
  type SpaceAccess,
  type SpaceModule,
  type SpaceOfRefusals,
  type SpaceOfRefused,
  type Viewer
} from "./Access"
import { audienceOf } from "./audience"
import { structureMessages as M } from "./messages"
import { StructureRepo } from "./Repo"

/** `Access` over the rules of `audience.ts`, the same ones the section and space lists use. */
export const AccessLive = Layer.effect(
  Access,
  Effect.gen(function*() {
    const repo = yield* StructureRepo
    const audience = (viewer: Viewer) => Effect.map(Clock.currentTimeMillis, (now) => audienceOf(viewer, new Date(now)))

    const space = traced("Access.space")(function*(viewer: Viewer, spaceId: string) {
      if (!isUuid(spaceId)) return yield* Effect.fail(notFound(M.spaceUnknown))
      const s = yield* orNotFound(M.spaceUnknown)(
        repo.findSpace(viewer.communityId, spaceId.toLowerCase(), yield* audience(viewer))
      )
      return {
        spaceId: s.id,
        sectionId: s.sectionId,
        module: s.module,
        visibility: s.visibility,
        title: s.title,
        isStaff: Option.exists(viewer.member, (member) => isStaff(member.role)),
        canReadContent: s.canReadContent
      } satisfies SpaceAccess
    })

    const readContent = traced("Access.readContent")(function*(viewer: Viewer, spaceId: string) {
      const access = yield* space(viewer, spaceId)
      if (!access.canReadContent) return yield* Effect.fail(forbidden(Messages.spaceContentForbidden))
      return access
    })

    const spaceOf = <const R extends SpaceOfRefusals>(
      module: SpaceModule,
      refusals: R,
      options?: { readonly read?: boolean }
    ) => {
      const lookup = options?.read === true ? readContent : space
      return traced("Access.spaceOf")(function*(viewer: Viewer, spaceId: string | null | undefined) {
        const id = spaceId?.trim().toLowerCase() ?? ""
        if (refusals.in === "path") {
          const found = yield* lookup(viewer, id)
          if (found.module !== module) return yield* Effect.fail(notFound(refusals.otherModule))
          return found
        }
        if (id === "") return yield* Effect.fail(invalidField("spaceId", refusals.required))
        const found = yield* lookup(viewer, id).pipe(
          Effect.catchIf(
            (error) => error instanceof NotFound,
            () => Effect.fail(invalidField("spaceId", refusals.unknown))
          )
        )
        if (found.module !== module) return yield* Effect.fail(invalidField("spaceId", refusals.otherModule))
        return found
      }) as (viewer: Viewer, spaceId: string | null | undefined) => Effect.Effect<SpaceAccess, SpaceOfRefused<R>>
    }

    const readableSpaceIds = traced("Access.readableSpaceIds")(function*(viewer: Viewer) {
      return yield* repo.readableSpaceIds(viewer.communityId, yield* audience(viewer))
    })

    const readableSpaces = (viewer: Viewer) =>
      Effect.map(audience(viewer), (audience) => repo.readableSpaces(viewer.communityId, audience))

    const readableSpacesOf = (communityId: CommunityId, caller: CallerColumns) =>
      Effect.map(
        Clock.currentTimeMillis,
        (now) => repo.readableSpaces(communityId, { kind: "caller", caller, now: new Date(now) })
      )

    return { space, readContent, spaceOf, readableSpaceIds, readableSpaces, readableSpacesOf }
  })
).pipe(Layer.provide(StructureRepo.Default))
