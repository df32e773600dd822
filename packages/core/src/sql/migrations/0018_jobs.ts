import { ddl } from "./ddl"

/**
 * Durable jobs (architecture rule 10). A worker claims due rows with `FOR UPDATE SKIP LOCKED` and a
 * lease (`locked_until`); a process that dies mid-job leaves the lease to expire and another worker
 * takes the job again. `key` makes an enqueue idempotent while a job with that key is unfinished.
 */
export default ddl(
  `CREATE TABLE jobs (
    id text PRIMARY KEY,
    kind text NOT NULL,
    key text,
    payload jsonb NOT NULL,
    status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'done', 'failed')),
    run_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    max_attempts integer NOT NULL,
    locked_until timestamptz,
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
  )`,
  `CREATE INDEX jobs_due ON jobs (run_at) WHERE status = 'queued'`,
  `CREATE UNIQUE INDEX jobs_open_key ON jobs (kind, key) WHERE status = 'queued' AND key IS NOT NULL`
)
