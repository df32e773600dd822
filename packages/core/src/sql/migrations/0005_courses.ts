import { ddl } from "./ddl"

/**
 * Courses, their modules and lessons, enrollments and lesson progress. Every table carries
 * `community_id`; children reference their parent through `(community_id, …)` so a row can never
 * point into another community. Progress rows keep the lesson id without a foreign key: deleting a
 * lesson, a module or a course leaves learners' progress in place (spec, Courses table). A space
 * that still holds courses cannot be deleted (the foreign key refuses it; structure answers 409).
 */
export default ddl(
  `CREATE TABLE courses (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL REFERENCES communities (id),
    space_id uuid NOT NULL,
    title text NOT NULL,
    slug text NOT NULL,
    description text,
    level text NOT NULL CHECK (level IN ('beginner', 'intermediate', 'advanced')),
    status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'published')),
    cover_url text,
    created_by uuid NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    published_at timestamptz,
    FOREIGN KEY (community_id, space_id) REFERENCES spaces (community_id, id)
  )`,
  `CREATE UNIQUE INDEX courses_community_id_key ON courses (community_id, id)`,
  `CREATE UNIQUE INDEX courses_community_slug_key ON courses (community_id, slug)`,
  `CREATE INDEX courses_space_idx ON courses (community_id, space_id, id)`,
  `CREATE INDEX courses_status_idx ON courses (community_id, status, id)`,
  `CREATE TABLE course_modules (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    course_id uuid NOT NULL,
    title text NOT NULL,
    position integer NOT NULL CHECK (position >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, course_id) REFERENCES courses (community_id, id) ON DELETE CASCADE
  )`,
  `CREATE UNIQUE INDEX course_modules_course_key ON course_modules (community_id, course_id, id)`,
  `CREATE INDEX course_modules_position_idx ON course_modules (community_id, course_id, position, id)`,
  `CREATE TABLE lessons (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    course_id uuid NOT NULL,
    module_id uuid NOT NULL,
    title text NOT NULL,
    type text NOT NULL CHECK (type IN ('text', 'image', 'video', 'link')),
    body text,
    image_url text,
    video_url text,
    url text,
    duration_seconds integer CHECK (duration_seconds >= 0),
    position integer NOT NULL CHECK (position >= 0),
    release_after_days integer CHECK (release_after_days >= 0),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    FOREIGN KEY (community_id, course_id, module_id)
      REFERENCES course_modules (community_id, course_id, id) ON DELETE CASCADE
  )`,
  `CREATE UNIQUE INDEX lessons_community_id_key ON lessons (community_id, id)`,
  `CREATE INDEX lessons_module_idx ON lessons (community_id, module_id, position, id)`,
  `CREATE INDEX lessons_course_idx ON lessons (community_id, course_id, module_id)`,
  `CREATE TABLE enrollments (
    id uuid PRIMARY KEY,
    community_id uuid NOT NULL,
    course_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    enrolled_at timestamptz NOT NULL,
    FOREIGN KEY (community_id, course_id) REFERENCES courses (community_id, id) ON DELETE CASCADE,
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE UNIQUE INDEX enrollments_learner_key ON enrollments (community_id, course_id, profile_id)`,
  `CREATE INDEX enrollments_profile_idx ON enrollments (community_id, profile_id)`,
  `CREATE TABLE lesson_progress (
    community_id uuid NOT NULL,
    lesson_id uuid NOT NULL,
    course_id uuid NOT NULL,
    profile_id uuid NOT NULL,
    completed boolean NOT NULL DEFAULT false,
    percent integer NOT NULL DEFAULT 0 CHECK (percent BETWEEN 0 AND 100),
    last_position_seconds integer NOT NULL DEFAULT 0 CHECK (last_position_seconds >= 0),
    completed_at timestamptz,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (community_id, lesson_id, profile_id),
    FOREIGN KEY (community_id, profile_id) REFERENCES profiles (community_id, id)
  )`,
  `CREATE INDEX lesson_progress_learner_idx ON lesson_progress (community_id, course_id, profile_id)`
)
