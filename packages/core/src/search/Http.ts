import { Effect } from "effect"
import { RodaApi } from "../api/RodaApi"
import { CurrentVisitor } from "../domain/Caller"
import { apiGroup } from "../http/engine/apiGroup"
import { ok } from "../http/Reply"
import { viewerOfVisitor } from "../structure/Access"
import { searchMessages as M } from "./messages"
import { Search } from "./Search"

export const SearchHttp = apiGroup(RodaApi, "search", (handlers) =>
  Effect.gen(function*() {
    const search = yield* Search
    return handlers.handle("search", ({ urlParams }) =>
      CurrentVisitor.pipe(
        Effect.flatMap((visitor) => search.search(viewerOfVisitor(visitor), urlParams)),
        Effect.flatMap((data) => ok(M.searchResults, data))
      ))
  }))
