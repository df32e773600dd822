import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Ok } from "../domain/Envelope"
import { Trimmed } from "../domain/Fields"
import { MAX_LIMIT, PageQuery } from "../domain/Pagination"
import { OneOf } from "../domain/Role"
import { ParametersRefused } from "../http/requestFailures"
import { PublicScope } from "../http/Security"
import { CANDIDATES_PER_MATCH, searchTypes } from "./types"

const SearchResult = Schema.Struct({
  type: OneOf(...searchTypes),
  id: Schema.String,
  title: Schema.String,
  spaceId: Schema.String,
  courseId: Schema.NullOr(Schema.String),
  score: Schema.Number
})

const SearchQuery = Schema.Struct({
  q: Trimmed(100, "must be between 1 and 100 characters").pipe(
    Schema.filter((value) => (value.length >= 1 && value.length <= 100) || "must be between 1 and 100 characters")
  ),
  limit: PageQuery.fields.limit
})

export class SearchApi extends HttpApiGroup.make("search")
  .annotateContext(OpenApi.annotations({
    title: "Search",
    description: "Title search across spaces, courses, lessons, events and content the caller may read."
  }))
  .add(
    HttpApiEndpoint.get("search", "/search")
      .setUrlParams(SearchQuery)
      .addSuccess(Ok(Schema.Array(SearchResult)))
      .addError(ParametersRefused)
      .middleware(PublicScope)
      .annotate(
        OpenApi.Description,
        `Public (token optional). Searches the titles of spaces, courses, lessons, events and content posts of the community for \`q\` (1 to 100 characters, trimmed), ignoring case and accents (\`busca\` finds \`Búsca\`). Matches contain the text or resemble a word of the title (trigram word similarity, so small typos still match); a \`q\` without 3 letters or digits in a row matches titles that start with it or have a word resembling it. Ranked: titles starting with \`q\` first, then titles with a word starting with it, then by similarity (\`score\`), shorter titles first. Bounded work, whatever the words: for courses, lessons, events and posts, at most ${CANDIDATES_PER_MATCH} candidates of each kind of match are read and ranked: titles starting with \`q\` (in the byte order of the lowercased, unaccented title), titles containing it and titles with a word resembling it (both in index order). A type with more matches than that answers the best of its candidates (the first titles starting with \`q\` among them), not necessarily the best of all its matches. Returns the best \`limit\` results (default 20, max ${MAX_LIMIT}), no pagination. Only what the caller may read: spaces whose content they may read, and the courses (published ones unless staff), lessons, events and posts of those spaces.`
      )
      .annotate(OpenApi.Summary, "Search the community")
  )
  .prefix("/api")
{}
