// The set-based SQL steps of bench/scale/seed.mjs. Each step fills, for every community of the temp table
// `scale_c` (community_id, ci, owner_profile_id), one kind of data with `INSERT … SELECT … FROM
// generate_series`. Ids are md5-derived (`md5('scale-<kind>-<ci>-<k>')::uuid`) and times count back from
// one fixed instant `t0`, so a row's id can be recomputed from its index (comments find their post
// without a join) and two runs at one scale make the same ids. Posts and comments get ids shaped like
// UUIDv7 from their time, as Roda makes them.
//
// Spaces come from the API (temp table `scale_spaces` (ci, module, i, space_id)).

/** A uuid from md5 of the SQL expressions `parts` joined with '-'. */
const mid = (...parts) => `md5(${parts.join(" || '-' || ")})::uuid`
const profileId = (ci, k) => mid("'scale-prof'", ci, k)

const V7 = `CREATE OR REPLACE FUNCTION pg_temp.v7(at timestamptz, key text) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT (lpad(to_hex((extract(epoch FROM at) * 1000)::bigint), 12, '0') || '7' || substr(md5(key), 1, 3) || 'a'
    || substr(md5(key), 4, 15))::uuid $$`

/** The `k`-th space (wrapping) of `module` in community `ci`. */
const spaceOf = (module, ci, k) =>
  `(SELECT s.space_id FROM scale_spaces s WHERE s.ci = ${ci} AND s.module = '${module}'
    AND s.i = (${k}) % (SELECT t.n FROM scale_space_counts t WHERE t.ci = ${ci} AND t.module = '${module}'))`

/** Profiles 1-3 are admins, 4-6 moderators, the rest members: a member spread by `expr`. */
const memberOf = (ci, expr, n) => profileId(ci, `(7 + ((${expr}) % ${Math.max(1, n.members - 6)}))`)

export const steps = (n, t0) => {
  const T0 = `'${t0}'::timestamptz`
  const statusAt = (i) => `(${T0} - make_interval(secs => 60 + (${i})::float8 * 63072000 / ${n.statusPosts}))`
  const contentAt = (i) => `(${T0} - make_interval(secs => 90 + (${i})::float8 * 63072000 / ${n.contentPosts}))`
  const statusId = (ci, i) => `pg_temp.v7(${statusAt(i)}, 'scale-status-' || ${ci} || '-' || (${i}))`
  const contentId = (ci, i) => `pg_temp.v7(${contentAt(i)}, 'scale-content-' || ${ci} || '-' || (${i}))`
  const courseId = (ci, k) => mid("'scale-course'", ci, k)
  const lessonsPerCourse = Math.max(1, Math.round(n.lessons / n.courses))
  const modulesPerCourse = Math.min(4, lessonsPerCourse)
  const lessonsPerModule = Math.ceil(lessonsPerCourse / modulesPerCourse)
  // every tenth course is a draft: the enrolments go to the published ones
  const enrollPerCourse = Math.max(1, Math.round(n.enrollments / Math.max(1, n.courses - Math.floor(n.courses / 10))))
  const partsPerEvent = Math.max(1, Math.round(n.participations / n.events))
  const subsPerCall = Math.max(1, Math.round(n.submissions / n.calls))
  return [
    ["accounts + profiles", [
      V7,
      `INSERT INTO accounts (id, email, full_name, password_hash, created_at, updated_at, email_verified_at)
      SELECT ${mid("'scale-acct'", "c.ci", "k")}, 'member-' || c.ci || '-' || k || '@scale.test',
        'Membro ' || c.ci || '-' || k, $1, ${T0} - interval '3 years' + make_interval(secs => k * 60),
        ${T0} - interval '3 years' + make_interval(secs => k * 60), ${T0} - interval '3 years'
      FROM scale_c c CROSS JOIN generate_series(1, ${n.members}) k`,
      `INSERT INTO profiles (id, community_id, account_id, role, full_name, bio, tags, created_at, updated_at)
      SELECT ${profileId("c.ci", "k")}, c.community_id, ${mid("'scale-acct'", "c.ci", "k")},
        CASE WHEN k <= 3 THEN 'admin' WHEN k <= 6 THEN 'moderator' ELSE 'member' END,
        'Membro ' || c.ci || '-' || k, CASE WHEN k % 3 = 0 THEN 'Bio do membro ' || k END,
        CASE WHEN k % 10 = 0 THEN ARRAY['tag' || (k % 7)] ELSE '{}' END,
        ${T0} - interval '3 years' + make_interval(secs => k * 60), ${T0} - interval '3 years' + make_interval(secs => k * 60)
      FROM scale_c c CROSS JOIN generate_series(1, ${n.members}) k`,
      // The owner registered through the API: confirmed too (an owner adds reviewers, a platform admin acts).
      `UPDATE accounts SET email_verified_at = ${T0} WHERE id IN
        (SELECT p.account_id FROM profiles p JOIN scale_c c ON p.id = c.owner_profile_id)`
    ]],
    ["status posts", [
      `INSERT INTO status_posts (id, community_id, author_profile_id, body, created_at, updated_at)
      SELECT ${statusId("c.ci", "g.i")}, c.community_id, ${memberOf("c.ci", "g.i::bigint * 7919", n)},
        'Publicação ' || g.i || '. ' || left(repeat('Texto de exemplo de uma comunidade real com algum volume. ', 8), 40 + (g.i * 37) % 400),
        ${statusAt("g.i")}, ${statusAt("g.i")}
      FROM scale_c c CROSS JOIN generate_series(0, ${n.statusPosts - 1}) g(i)`
    ]],
    ["content posts", [
      `INSERT INTO content_posts (id, community_id, space_id, author_profile_id, title, body, created_at, updated_at)
      SELECT ${contentId("c.ci", "g.i")}, c.community_id, sp.space_id, ${memberOf("c.ci", "g.i::bigint * 104729", n)},
        'Artigo ' || g.i || ' sobre ' || (ARRAY['cursos','eventos','comunidade','vendas','música'])[1 + g.i % 5],
        left(repeat('Conteúdo longo de um artigo da comunidade. ', 30), 200 + (g.i * 53) % 1000),
        ${contentAt("g.i")}, ${contentAt("g.i")}
      FROM scale_c c CROSS JOIN generate_series(0, ${n.contentPosts - 1}) g(i)
      JOIN scale_space_counts k ON k.ci = c.ci AND k.module = 'feed'
      JOIN scale_spaces sp ON sp.ci = c.ci AND sp.module = 'feed' AND sp.i = g.i % k.n`
    ]],
    ["comments", [
      // Two thirds on status posts, one third on content posts; the post is found from its index. None after t0.
      `INSERT INTO comments (id, community_id, item_type, item_id, parent_id, author_profile_id, body, created_at, updated_at)
      SELECT pg_temp.v7(x.at, 'scale-comment-' || c.ci || '-' || g.i), c.community_id, x.kind, x.item_id, NULL,
        ${
        memberOf("c.ci", "g.i::bigint * 15485863", n)
      }, 'Comentário ' || g.i || ': concordo com a publicação.', x.at, x.at
      FROM scale_c c CROSS JOIN generate_series(0, ${n.comments - 1}) g(i)
      CROSS JOIN LATERAL (
        SELECT CASE WHEN g.i % 3 = 2 THEN 'content' ELSE 'status' END AS kind,
          CASE WHEN g.i % 3 = 2 THEN ${contentId("c.ci", `(g.i::bigint * 31) % ${n.contentPosts}`)}
            ELSE ${statusId("c.ci", `(g.i::bigint * 17) % ${n.statusPosts}`)} END AS item_id,
          CASE WHEN g.i % 3 = 2 THEN ${contentAt(`(g.i::bigint * 31) % ${n.contentPosts}`)}
            ELSE ${
        statusAt(`(g.i::bigint * 17) % ${n.statusPosts}`)
      } END + make_interval(secs => 30 + g.i % 3600) AS raw) y
      CROSS JOIN LATERAL (SELECT least(y.raw, ${T0} - interval '1 second') AS at, y.kind, y.item_id) x`
    ]],
    ["reactions", [
      // 1-3 reactions on a third of the status posts, by distinct members.
      `INSERT INTO reactions (community_id, item_type, item_id, profile_id, type, created_at)
      SELECT c.community_id, 'status', ${statusId("c.ci", "g.i")}, ${
        memberOf("c.ci", "g.i::bigint * 13 + r.k * 1009", n)
      },
        (ARRAY['like','love','celebrate','insightful','funny'])[1 + (g.i + r.k) % 5], ${
        statusAt("g.i")
      } + make_interval(secs => r.k * 40)
      FROM scale_c c CROSS JOIN generate_series(0, ${n.statusPosts - 1}) g(i) CROSS JOIN generate_series(1, 3) r(k)
      WHERE g.i % 3 = 0 AND r.k <= 1 + (g.i / 3) % 3
      ON CONFLICT DO NOTHING`
    ]],
    ["courses + modules + lessons", [
      `INSERT INTO courses (id, community_id, space_id, title, slug, description, level, status, created_by, created_at, updated_at, published_at)
      SELECT ${courseId("c.ci", "k")}, c.community_id, ${spaceOf("courses", "c.ci", "k")}, 'Curso ' || k || ' de ' ||
        (ARRAY['violão','marketing','culinária','programação','fotografia'])[1 + k % 5], 'curso-' || k,
        'Um curso da comunidade.', (ARRAY['beginner','intermediate','advanced'])[1 + k % 3],
        CASE WHEN k % 10 = 0 THEN 'draft' ELSE 'published' END, c.owner_profile_id,
        ${T0} - make_interval(days => 700 - k % 600), ${T0} - make_interval(days => 700 - k % 600),
        CASE WHEN k % 10 = 0 THEN NULL ELSE ${T0} - make_interval(days => 690 - k % 600) END
      FROM scale_c c CROSS JOIN generate_series(1, ${n.courses}) k`,
      `INSERT INTO course_modules (id, community_id, course_id, title, position, created_at, updated_at)
      SELECT ${mid("'scale-module'", "c.ci", "k", "m")}, c.community_id, ${
        courseId("c.ci", "k")
      }, 'Módulo ' || (m + 1), m,
        ${T0} - interval '690 days', ${T0} - interval '690 days'
      FROM scale_c c CROSS JOIN generate_series(1, ${n.courses}) k CROSS JOIN generate_series(0, ${
        modulesPerCourse - 1
      }) m`,
      `INSERT INTO lessons (id, community_id, course_id, module_id, title, type, body, duration_seconds, position, created_at, updated_at)
      SELECT ${mid("'scale-lesson'", "c.ci", "k", "l")}, c.community_id, ${courseId("c.ci", "k")},
        ${
        mid("'scale-module'", "c.ci", "k", `(l / ${lessonsPerModule})`)
      }, 'Aula ' || (l + 1) || ' do curso ' || k, 'text',
        left(repeat('Conteúdo da aula. ', 40), 300 + l * 10), 300 + (l % 7) * 60, l % ${lessonsPerModule},
        ${T0} - interval '690 days', ${T0} - interval '690 days'
      FROM scale_c c CROSS JOIN generate_series(1, ${n.courses}) k CROSS JOIN generate_series(0, ${
        lessonsPerCourse - 1
      }) l
      WHERE l / ${lessonsPerModule} < ${modulesPerCourse}`
    ]],
    ["enrollments + progress", [
      `INSERT INTO enrollments (id, community_id, course_id, profile_id, enrolled_at)
      SELECT ${mid("'scale-enrol'", "c.ci", "k", "e")}, c.community_id, ${courseId("c.ci", "k")},
        ${memberOf("c.ci", `(k::bigint * ${enrollPerCourse} + e)`, n)}, ${T0} - make_interval(days => 1 + (k + e) % 600)
      FROM scale_c c CROSS JOIN generate_series(1, ${n.courses}) k CROSS JOIN generate_series(0, ${
        enrollPerCourse - 1
      }) e
      WHERE k % 10 <> 0
      ON CONFLICT DO NOTHING`,
      // Each enrolment completed the first (h % 4) lessons and is midway through the next.
      `INSERT INTO lesson_progress (community_id, lesson_id, course_id, profile_id, completed, percent, last_position_seconds, completed_at, updated_at)
      SELECT e.community_id, ${mid("'scale-lesson'", "c.ci", "k.k", "l")}, e.course_id, e.profile_id,
        l < h.h, CASE WHEN l < h.h THEN 100 ELSE 40 END, CASE WHEN l < h.h THEN 0 ELSE 120 END,
        CASE WHEN l < h.h THEN e.enrolled_at + make_interval(hours => l + 1) END, e.enrolled_at + make_interval(hours => l + 1)
      FROM enrollments e JOIN scale_c c ON c.community_id = e.community_id
      CROSS JOIN LATERAL (SELECT ('x' || substr(md5(e.id::text), 1, 7))::bit(28)::int % 4 AS h) h
      CROSS JOIN LATERAL (SELECT substring(cs.slug FROM 7)::int AS k FROM courses cs WHERE cs.id = e.course_id) k
      CROSS JOIN generate_series(0, ${lessonsPerCourse - 1}) l
      WHERE l <= h.h AND l / ${lessonsPerModule} < ${modulesPerCourse}`
    ]],
    ["events + participants", [
      `INSERT INTO events (id, community_id, space_id, host_profile_id, title, slug, description, type, start_time, end_time,
        timezone, capacity, join_url, city, country, created_at, updated_at)
      SELECT ${mid("'scale-event'", "c.ci", "k")}, c.community_id, ${
        spaceOf("events", "c.ci", "k")
      }, c.owner_profile_id,
        'Encontro ' || k || ' de ' || (ARRAY['leitura','música','negócios','tecnologia'])[1 + k % 4], 'encontro-' || k,
        'Um evento da comunidade.', CASE WHEN k % 3 = 0 THEN 'in_person' ELSE 'online' END,
        x.start, x.start + interval '2 hours', 'America/Sao_Paulo', CASE WHEN k % 5 = 0 THEN 100 END,
        CASE WHEN k % 3 = 0 THEN NULL ELSE 'https://meet.example.test/' || k END,
        CASE WHEN k % 3 = 0 THEN 'São Paulo' END, CASE WHEN k % 3 = 0 THEN 'BR' END,
        x.start - interval '30 days', x.start - interval '30 days'
      FROM scale_c c CROSS JOIN generate_series(1, ${n.events}) k
      CROSS JOIN LATERAL (SELECT ${T0} - interval '600 days' + make_interval(hours => (k::bigint * 16000 / ${n.events})::int) AS start) x`,
      `INSERT INTO event_participants (community_id, event_id, profile_id, status, checked_in_at, joined_at, updated_at, ticket_code)
      SELECT c.community_id, ${mid("'scale-event'", "c.ci", "k")}, ${
        memberOf("c.ci", `(k::bigint * ${partsPerEvent} + p)`, n)
      },
        CASE WHEN p % 20 = 19 THEN 'cancelled' ELSE 'going' END, NULL, ${T0} - make_interval(days => 1 + (k + p) % 600),
        ${T0} - make_interval(days => 1 + (k + p) % 600), upper(substr(md5('scale-ticket-' || c.ci || '-' || k || '-' || p), 1, 16))
      FROM scale_c c CROSS JOIN generate_series(1, ${n.events}) k CROSS JOIN generate_series(0, ${partsPerEvent - 1}) p
      ON CONFLICT DO NOTHING`
    ]],
    ["certificates", [
      `INSERT INTO certificate_templates (id, community_id, space_id, name, title, body, font_id, orientation, page_size, background, status, created_at, updated_at)
      SELECT ${
        mid("'scale-template'", "s.ci", "s.i")
      }, c.community_id, s.space_id, 'Modelo ' || s.i, 'Certificado de participação',
        'Certificamos que {{name}} concluiu {{space}}.', 'inter', 'landscape', 'A4', '#ffffff', 'active',
        ${T0} - interval '600 days', ${T0} - interval '600 days'
      FROM scale_spaces s JOIN scale_c c ON c.ci = s.ci WHERE s.module = 'certificates'`,
      `INSERT INTO certificates (id, community_id, space_id, template_id, profile_id, account_id, recipient_name, recipient_email,
        space_title, code, status, issued_at, created_at, updated_at)
      SELECT ${
        mid("'scale-cert'", "c.ci", "k")
      }, c.community_id, t.space_id, t.id, p.id, p.account_id, p.full_name, a.email,
        s.title, regexp_replace(upper(substr(md5('scale-cert-' || c.ci || '-' || k), 1, 16)), '(....)(....)(....)(....)', '\\1-\\2-\\3-\\4'),
        'issued', ${T0} - make_interval(days => 1 + k % 500), ${T0} - make_interval(days => 1 + k % 500), ${T0} - make_interval(days => 1 + k % 500)
      FROM scale_c c CROSS JOIN generate_series(0, ${n.certificates - 1}) k
      JOIN certificate_templates t ON t.community_id = c.community_id
        AND t.id = ${
        mid(
          "'scale-template'",
          "c.ci",
          `(k % (SELECT x.n FROM scale_space_counts x WHERE x.ci = c.ci AND x.module = 'certificates'))`
        )
      }
      JOIN profiles p ON p.id = ${
        memberOf(
          "c.ci",
          `(k / (SELECT x.n FROM scale_space_counts x WHERE x.ci = c.ci AND x.module = 'certificates'))`,
          n
        )
      }
      JOIN accounts a ON a.id = p.account_id
      JOIN spaces s ON s.id = t.space_id
      ON CONFLICT DO NOTHING`
    ]],
    ["calls for papers", [
      `INSERT INTO call4papers_calls (id, community_id, space_id, title, slug, description, status, opens_at, closes_at,
        created_by_profile_id, published_at, created_at, updated_at)
      SELECT ${mid("'scale-call'", "c.ci", "k")}, c.community_id, ${
        spaceOf("call4papers", "c.ci", "k")
      }, 'Chamada ' || k, 'chamada-' || k,
        'Envie sua palestra.', 'published', ${T0} - interval '60 days', ${T0} + interval '60 days', c.owner_profile_id,
        ${T0} - interval '60 days', ${T0} - interval '61 days', ${T0} - interval '60 days'
      FROM scale_c c CROSS JOIN generate_series(1, ${n.calls}) k`,
      `INSERT INTO call4papers_owners (id, community_id, call_id, profile_id, status, invited_by_profile_id, invited_at, responded_at)
      SELECT ${mid("'scale-call-owner'", "c.ci", "k")}, c.community_id, ${
        mid("'scale-call'", "c.ci", "k")
      }, c.owner_profile_id,
        'accepted', NULL, ${T0} - interval '61 days', ${T0} - interval '61 days'
      FROM scale_c c CROSS JOIN generate_series(1, ${n.calls}) k`,
      `INSERT INTO call4papers_submissions (id, community_id, call_id, proposer_profile_id, title, abstract, status, version,
        submitted_at, created_at, updated_at)
      SELECT ${mid("'scale-sub'", "c.ci", "k", "s")}, c.community_id, ${mid("'scale-call'", "c.ci", "k")},
        ${memberOf("c.ci", `(k::bigint * ${subsPerCall} + s)`, n)}, 'Palestra ' || s || ' da chamada ' || k,
        'Resumo da palestra.', 'enviada', 1, ${T0} - make_interval(days => 1 + s % 50),
        ${T0} - make_interval(days => 1 + s % 50), ${T0} - make_interval(days => 1 + s % 50)
      FROM scale_c c CROSS JOIN generate_series(1, ${n.calls}) k CROSS JOIN generate_series(0, ${subsPerCall - 1}) s`,
      `INSERT INTO call4papers_submission_versions (community_id, submission_id, version, title, abstract, author_profile_id, created_at)
      SELECT community_id, id, 1, title, abstract, proposer_profile_id, submitted_at FROM call4papers_submissions`,
      `INSERT INTO call4papers_submission_speakers (community_id, submission_id, profile_id, role, position, status, responded_at)
      SELECT community_id, id, proposer_profile_id, 'proposer', 0, 'accepted', NULL FROM call4papers_submissions`,
      `INSERT INTO call4papers_reviews (community_id, submission_id, reviewer_profile_id, score, comment, created_at, updated_at)
      SELECT s.community_id, s.id, c.owner_profile_id, 1 + ('x' || substr(md5(s.id::text), 1, 7))::bit(28)::int % 5,
        'Boa proposta.', s.submitted_at + interval '1 day', s.submitted_at + interval '1 day'
      FROM call4papers_submissions s JOIN scale_c c ON c.community_id = s.community_id`
    ]]
  ]
}
