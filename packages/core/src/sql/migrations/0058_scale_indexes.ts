import { ddl } from "./ddl"

/**
 * Lists measured at the size of a real community (issue 58, `bench/scale`): each index here serves a
 * list or lookup that sorted or scanned tens of thousands of rows there.
 * - `certificates_community_idx`: the staff's certificate list of a community, in (created_at, id)
 *   order (50,000 certificates were sorted for each page).
 */
export default ddl(
  `CREATE INDEX certificates_community_idx ON certificates (community_id, created_at, id)`
)
