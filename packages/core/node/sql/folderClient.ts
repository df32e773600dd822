/**
 * How the server opens an embedded data folder: in a worker thread, a new folder unpacked from
 * `template`. The same for the early start (`prestart.ts`) and the database layer (`Database.ts`), so
 * the one takes over what the other started.
 */
export const folderClient = (dataDir: string, template: string | undefined) => ({
  dataDir,
  // PGlite's contrib extensions Roda's migrations use (search), loaded where the database runs.
  contrib: ["pg_trgm", "unaccent"],
  thread: "worker" as const,
  unpackFrom: template
})
