import identity from "./0001_identity"
import communities from "./0002_communities"
import search from "./0003_search"
import structure from "./0004_structure"
import courses from "./0005_courses"

/** Every migration, keyed `NNNN_name` for `Migrator.fromRecord`. */
export const migrations = {
  "0001_identity": identity,
  "0002_communities": communities,
  "0003_search": search,
  "0004_structure": structure,
  "0005_courses": courses
}
