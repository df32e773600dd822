import { fileURLToPath } from "node:url"

/** Where a test run keeps the migrated embedded (PGlite) template, between its processes and runs. */
export const EMBEDDED_TEMPLATE_DIR = fileURLToPath(new URL("../node_modules/.cache/roda-pglite", import.meta.url))
