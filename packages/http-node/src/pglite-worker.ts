// The embedded database's worker thread, built beside the `roda-server` binary's chunks, where
// `@roda/sql-pglite` (carried in them) looks for it.
import "@roda/sql-pglite/pglite-worker"
