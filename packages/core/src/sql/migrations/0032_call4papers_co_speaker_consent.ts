import { ddl } from "./ddl"

/**
 * Co-speakers consent: a co-speaker named by the proposer is `invited` until they answer with their
 * own token (`accepted` or `declined`); only `accepted` rows count as speakers (bank, lists,
 * visibility). Rows made before it stay `accepted`; the proposer's own row is always `accepted`.
 */
export default ddl(
  `ALTER TABLE call4papers_submission_speakers ADD COLUMN status text NOT NULL DEFAULT 'accepted'
    CHECK (status IN ('invited', 'accepted', 'declined'))`,
  `ALTER TABLE call4papers_submission_speakers ADD COLUMN responded_at timestamptz`,
  `ALTER TABLE call4papers_submission_speakers ADD CONSTRAINT call4papers_submission_speakers_proposer_accepted
    CHECK (role = 'co_speaker' OR status = 'accepted')`
)
