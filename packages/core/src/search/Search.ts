import { Effect, Option } from "effect"
import { DEFAULT_LIMIT } from "../domain/Pagination"
import { isStaff } from "../domain/Role"
import { traced } from "../platform/traced"
import { Access, type Viewer } from "../structure/Access"
import { SearchRepo } from "./Repo"

export interface SearchQuery {
  readonly q: string
  readonly limit?: number | undefined
}

/** Title search in a community, limited to what the viewer may read. */
export class Search extends Effect.Service<Search>()("@roda/core/Search", {
  effect: Effect.gen(function*() {
    const repo = yield* SearchRepo
    const access = yield* Access

    const search = traced("Search.search")(function*(viewer: Viewer, query: SearchQuery) {
      const rows = yield* repo.search(
        {
          communityId: viewer.communityId,
          spaceIds: yield* access.readableSpaceIds(viewer),
          staff: Option.exists(viewer.member, (member) => isStaff(member.role))
        },
        query.q,
        query.limit ?? DEFAULT_LIMIT
      )
      return rows.map((row) => ({ ...row, score: Math.round(row.score * 1000) / 1000 }))
    })

    return { search }
  }),
  dependencies: [SearchRepo.Default]
}) {}
