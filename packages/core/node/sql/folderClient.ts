/** PGlite's contrib extensions Roda's migrations use (search). */
export const embeddedContrib = ["pg_trgm", "unaccent"]

/**
 * How the server opens an embedded data folder: in a worker thread, a new folder unpacked from
 * `template`. The same for the early start (`prestart.ts`) and the database layer (`Database.ts`), so
 * the one takes over what the other started.
 */
export const folderClient = (dataDir: string, template: string | undefined) => ({
  dataDir,
  contrib: embeddedContrib,
  thread: "worker" as const,
  unpackFrom: template
})
