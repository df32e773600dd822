import { ddl } from "./ddl"

/**
 * Files kept in the database (`platform/databaseBlobStore.ts`, the default on PostgreSQL): a `blobs`
 * row per key names the current content (`id`), whose bytes are `blob_chunks` rows of 256 KB in order
 * (`seq`). Rewriting a key writes a new `id` and drops the old one's chunks in one transaction, so a
 * reader that found the row reads one whole file.
 */
export default ddl(
  `CREATE TABLE blobs (
    key text PRIMARY KEY,
    id uuid NOT NULL UNIQUE,
    content_type text NOT NULL,
    size bigint NOT NULL CHECK (size >= 0),
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE blob_chunks (
    blob_id uuid NOT NULL,
    seq integer NOT NULL CHECK (seq >= 0),
    data bytea NOT NULL,
    PRIMARY KEY (blob_id, seq)
  )`
)
