import { ddl } from "./ddl"

/**
 * Calls for papers, second half (issue 14): submissions to a call and everything around them.
 * - `call4papers_submissions`: one proposal, its current text and `status` (design/states.md
 *   "Call for papers"); `version` counts the proposer's edits, each kept whole in
 *   `call4papers_submission_versions` (a speaker-facing flow that never loses a version).
 *   `agreed_offer_id` names the offer whose terms are in force once accepted (null: the proposal's own).
 * - `call4papers_submission_speakers`: the proposer and the co-speakers (the speaker bank reads it).
 * - `call4papers_reviews` and `call4papers_votes`: one row per (submission, person), upserted.
 * - `call4papers_offers`: every negotiation offer, kept; at most one `open` per submission (partial
 *   unique index), numbered per submission.
 * - `call4papers_speaker_invitations`: a person from the speaker bank invited to a call.
 * Every table carries `community_id` and is reached by it first.
 */
export default ddl(
  `CREATE TABLE call4papers_submissions (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    call_id uuid NOT NULL,
    track_id uuid,
    proposer_profile_id uuid NOT NULL,
    title text NOT NULL,
    abstract text NOT NULL,
    status text NOT NULL DEFAULT 'rascunho'
      CHECK (status IN ('rascunho', 'enviada', 'em_negociacao', 'aceita', 'recusada', 'retirada', 'confirmada')),
    version integer NOT NULL DEFAULT 1,
    agreed_offer_id uuid,
    decision_note text,
    submitted_at timestamptz,
    decided_at timestamptz,
    confirmed_at timestamptz,
    withdrawn_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, call_id) REFERENCES call4papers_calls (community_id, id),
    FOREIGN KEY (community_id, track_id) REFERENCES call4papers_tracks (community_id, id),
    FOREIGN KEY (community_id, proposer_profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX call4papers_submissions_community_id_key ON call4papers_submissions (community_id, id)`,
  `CREATE INDEX call4papers_submissions_call_idx ON call4papers_submissions (community_id, call_id, id)`,
  `CREATE INDEX call4papers_submissions_track_idx ON call4papers_submissions (community_id, call_id, track_id, id)`,
  `CREATE INDEX call4papers_submissions_proposer_idx
    ON call4papers_submissions (community_id, proposer_profile_id, id)`,
  `CREATE TABLE call4papers_submission_versions (
    community_id uuid NOT NULL,
    submission_id uuid NOT NULL,
    version integer NOT NULL,
    title text NOT NULL,
    abstract text NOT NULL,
    track_id uuid,
    co_speaker_profile_ids uuid[] NOT NULL DEFAULT '{}',
    author_profile_id uuid NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, submission_id, version),
    FOREIGN KEY (community_id, submission_id) REFERENCES call4papers_submissions (community_id, id)
  )`,
  `CREATE TABLE call4papers_submission_speakers (
    community_id uuid NOT NULL,
    submission_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    role text NOT NULL CHECK (role IN ('proposer', 'co_speaker')),
    position integer NOT NULL,
    PRIMARY KEY (community_id, submission_id, profile_id),
    FOREIGN KEY (community_id, submission_id) REFERENCES call4papers_submissions (community_id, id),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE INDEX call4papers_submission_speakers_profile_idx
    ON call4papers_submission_speakers (community_id, profile_id, submission_id)`,
  `CREATE TABLE call4papers_reviews (
    community_id uuid NOT NULL,
    submission_id uuid NOT NULL,
    reviewer_profile_id uuid NOT NULL,
    score smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
    comment text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, submission_id, reviewer_profile_id),
    FOREIGN KEY (community_id, submission_id) REFERENCES call4papers_submissions (community_id, id),
    FOREIGN KEY (community_id, reviewer_profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE INDEX call4papers_reviews_reviewer_idx
    ON call4papers_reviews (community_id, reviewer_profile_id, submission_id)`,
  `CREATE TABLE call4papers_votes (
    community_id uuid NOT NULL,
    submission_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    vote smallint NOT NULL CHECK (vote BETWEEN 1 AND 5),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, submission_id, profile_id),
    FOREIGN KEY (community_id, submission_id) REFERENCES call4papers_submissions (community_id, id),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE INDEX call4papers_votes_profile_idx ON call4papers_votes (community_id, profile_id, submission_id)`,
  `CREATE TABLE call4papers_offers (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    submission_id uuid NOT NULL,
    version integer NOT NULL,
    side text NOT NULL CHECK (side IN ('organisation', 'speaker')),
    author_profile_id uuid NOT NULL,
    format text,
    duration_minutes integer CHECK (duration_minutes > 0),
    track_id uuid,
    fee bigint CHECK (fee >= 0),
    currency text,
    note text,
    status text NOT NULL DEFAULT 'open'
      CHECK (status IN ('open', 'retracted', 'superseded', 'accepted', 'declined', 'closed')),
    created_at timestamptz NOT NULL,
    closed_at timestamptz,
    closed_by_profile_id uuid,
    CHECK (fee IS NULL OR currency IS NOT NULL),
    FOREIGN KEY (community_id, submission_id) REFERENCES call4papers_submissions (community_id, id),
    FOREIGN KEY (community_id, author_profile_id) REFERENCES profiles (community_id, id),
    FOREIGN KEY (community_id, track_id) REFERENCES call4papers_tracks (community_id, id)
  )`,
  `CREATE UNIQUE INDEX call4papers_offers_version_key ON call4papers_offers (community_id, submission_id, version)`,
  `CREATE UNIQUE INDEX call4papers_offers_open_key ON call4papers_offers (community_id, submission_id)
    WHERE status = 'open'`,
  `CREATE TABLE call4papers_speaker_invitations (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    call_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    invited_by_profile_id uuid NOT NULL,
    message text,
    created_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, call_id) REFERENCES call4papers_calls (community_id, id),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX call4papers_speaker_invitations_key
    ON call4papers_speaker_invitations (community_id, call_id, profile_id)`,
  `CREATE INDEX call4papers_speaker_invitations_profile_idx
    ON call4papers_speaker_invitations (community_id, profile_id, created_at)`
)
