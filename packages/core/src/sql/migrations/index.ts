import identity from "./0001_identity"
import communities from "./0002_communities"
import search from "./0003_search"

/** Every migration, keyed `NNNN_name` for `Migrator.fromRecord`. */
export const migrations = {
  "0001_identity": identity,
  "0002_communities": communities,
  "0003_search": search
}
