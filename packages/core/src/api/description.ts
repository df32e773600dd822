/** The OpenAPI description: the envelope, the headers, and decisions the spec leaves open. */
export const description = `
Roda is a community-platform API. Every route lives under \`/api\`.

## Envelope
- Success: \`{"success": true, "message": "…", "data": …}\`; creation answers 201 with \`data.id\`.
- Lists: \`data\` is an array and \`pagination\` is \`{"limit": n, "nextCursor": "…" | null}\`: keyset
  pagination with \`?limit=\` (default 20, max 100) and \`?cursor=\` (the \`nextCursor\` of the previous page).
- Errors: \`{"success": false, "code": "…", "message": "…", "errors": [{"param", "msg", "location"}]}\`;
  \`errors\` comes with every 400. \`code\` names what happened, stable across languages and wording
  (\`not_member\`, \`community_header_missing\`, \`insufficient_balance\`): act on the code, show the message.
  A failure whose words are made on the spot has its status's code: \`invalid_input\` for every schema
  failure (400), \`unauthenticated\`, \`forbidden\`, \`not_found\`, \`conflict\`, \`gone\`,
  \`payload_too_large\`, \`rate_limited\`, \`service_unavailable\`, \`internal_error\`. Malformed JSON and wrong types answer 400, and so does a body field the route does not
  declare (\`errors[].param\` is its path, e.g. \`access.foo\`): a field is never silently ignored.
  Bodies over 1 MB answer 413, unknown routes 404. No route takes \`multipart/form-data\`: such a body
  answers 415 (param \`Content-Type\`, location \`headers\`).
  JSON nested more than 64 levels (arrays and objects) answers 400 before it is read. A \`cursor\` that was
  not given by the API (or was altered) answers 400 "cursor is not valid". A JSON string holding an
  unpaired surrogate escape (\`\\uD800\` to \`\\uDFFF\` outside a high-low pair) is not text and answers 400
  (param \`body\`). Dates and instants must fall within the years 0001 to 9999 (UTC), else 400 naming the
  field; a \`to\` date of 9999-12-31 reaches the end of that range.
- A lost database connection answers 503 with \`Retry-After\` (never 500); see "Writes and retries".

## Headers
- \`Authorization: Bearer <JWT>\`: required except on Public routes (where it is optional, and an invalid
  one is still refused with 401). Tokens last 7 days; there is no refresh token. Every sign-in (login,
  register) is a session, named in the token as \`sid\` (\`GET /api/auth/sessions\`): a token of an ended
  session (logout, logout-all, set-password with \`logoutAll\`, an e-mail change taken back, an operator)
  answers 401 \`Invalid or expired token\` from its next request, on every process sharing the database.
  Tokens issued before sessions existed (no \`sid\`) are refused the same way: their holders sign in again
  (they could not be ended otherwise). A password change alone ends no session (spec §5.3).
- \`Authorization: Bearer rk_…\`: an API key (see "API keys") on the routes of a community, and at \`/mcp\`.
- \`X-CommunityId\`: the community of the call, required on every route except the authentication
  routes, \`POST /api/communities\`, \`GET /api/communities/my\`, \`GET /api/profiles/my\` and
  \`POST /api/communities/domain\` (which resolves a domain or slug to a community, so cannot know it yet).
- \`X-ProfileId\`: owner, admin and moderator may act as another profile of the community; only an owner
  may act as an owner; the caller keeps their own role.
- \`Accept-Language\`: messages are in Portuguese by default, in English with \`en\`; format validations
  are always in English.
- \`Idempotency-Key\` (optional, on every POST but sign-in and \`/api/checkout\`, which has its own): 1 to 255
  visible ASCII characters, e.g. a UUID; see "Writes and retries".
- CORS: only the configured origins (\`CORS_ORIGINS\`; by default the origin of the public base URL) are
  answered, each reflected with \`Vary: Origin\`; never \`*\`.

## Writes and retries
- Every POST (but checkout and sign-in) runs in one database transaction, from authentication to the answer:
  the answer is built before COMMIT, and COMMIT is the last database act, so a 201 is only answered for kept work.
  \`POST /api/status\` without an \`Idempotency-Key\` skips that transaction: its write is one statement (two in
  a transaction of their own with mentions), committed before the answer, so the same holds at two round trips less.
  Client errors (4xx) keep what the request recorded before it was refused; server errors keep nothing. If the connection is lost, the answer is 503 with \`Retry-After\`; only when COMMIT itself
  was cut may the work have been kept, so retry with the same \`Idempotency-Key\`.
- \`Idempotency-Key\`: scoped to the community (\`X-CommunityId\`, if any) and the caller (the token's account,
  or anonymous). The key is claimed in the request's transaction, so the write and its stored answer commit
  together. A retry of the same request (same method, path, query, \`X-ProfileId\` and body) within 24 hours
  replays the first 2xx answer with \`Idempotent-Replayed: true\`; the same key with another request answers
  409 (\`errors[].param\` \`Idempotency-Key\`, location \`headers\`); a request arriving while the first is in
  flight waits for it, then replays. Answers other than 2xx are not stored: the key may be used again.

## Decisions
- Ids are UUIDv7. A malformed id answers 400; another community's id answers 404.
- One name per path parameter: \`GET /api/courses/{id}\` and \`GET /api/events/{id}\` take an id or the slug,
  \`GET /api/coupons/{id}\` an id or the code (the spec's \`{identifier}\` and \`{idOrCode}\`); a bad value
  answers 400 with \`errors[].param\` \`id\`.
- Money is an integer number of minor units with an ISO 4217 currency.
- Sign-in failures are limited per account and client address (5 in 15 minutes), per account from anywhere
  (100) and per address (30): 429 with \`Retry-After\`. Each attempt is reserved before the password is
  checked, so parallel guesses cannot pass the limit; a wrong guess from elsewhere does not lock the
  holder out of their own address.
- OAuth dynamic client registration (\`POST /oauth/register\`) is limited per clock hour, per client address
  (20) and in all (1,000), both configurable (0 is no limit): 429 \`temporarily_unavailable\` with \`Retry-After\`
  (seconds until the hour ends). Refused metadata (400) is not counted.
- Limits on abuse, counted in the database (every process serving it shares them), each in a fixed window
  that starts at a key's first counted action and ends \`w\` seconds later: recovery 3 an hour per target
  e-mail and 20 an hour per client address; \`verifyEmail\` 3 an hour per account; \`register\` 10 an hour per
  client address; \`invite\` (\`/api/profiles/invite\` and \`/create\`) 200 an hour per community;
  \`certificateMail\` 5 a day per certificate; \`paymentLink\` 5 a day per subscription; \`posting\` (status and
  content posts, comments, and the MCP tools that make them) 20 a minute per account and community. A fixed
  window (not a sliding one) keeps one row and one upsert per check and gives an exact reset; it allows at
  most twice the limit across a window's end, which these limits tolerate. Over a limit: 429 with the
  envelope's message, \`Retry-After\` (seconds until the window ends) and the headers. The answers of these
  operations carry \`RateLimit-Policy: "<name>";q=<limit>;w=<seconds>\` and \`RateLimit: "<name>";r=<left>;t=<seconds>\`
  (IETF httpapi rate-limit headers) once the limit is counted (not on a 400/401 refused before it). Invites,
  certificate e-mails and payment links are counted only once the caller is allowed to act on that community,
  certificate or subscription, so nobody else can use up their budget. A target's limit is silent: recovery
  past 3 an hour for an address, and verification past 3 an hour, answer the same 2xx and send no e-mail;
  recovery's headers show the caller's per-client limit, never the target's (that would tell the state of
  someone else's address), verification's the caller's own account. The limits are configured with
  \`RATE_LIMITS\` (JSON \`{ "name": { "limit", "windowSeconds" } }\`; \`recovery\` also takes \`clientLimit\`; \`0\`
  turns a limit off) or makeRoda's \`rateLimits\`. Without a client address (an embedding that gives none)
  the per-client limits count every such request under one key.
- The client address every per-client limit and the operator audit log use is resolved once per request.
  By default it is the socket's, and \`Forwarded\`, \`X-Forwarded-For\`, \`X-Forwarded-Proto\` and
  \`X-Forwarded-Host\` are ignored. Behind proxies the server trusts (\`TRUST_PROXY\`: a number of hops, or
  the proxies' addresses and CIDRs), the hops are walked from the right starting at the socket, as long as
  the hop reached is trusted: with \`n\` hops the client is the \`n\`-th address from the right of
  \`X-Forwarded-For\`; with addresses, the first hop that is not one of them. \`Forwarded\` (RFC 7239) is read
  instead of \`X-Forwarded-For\` when present (\`for=\` with ports and quoted \`"[IPv6]:port"\` forms). Entries
  left of the trusted ones are the client's to write and change nothing; a hop that names no address
  (\`unknown\`, an obfuscated name, anything else) leaves the client at the trusted proxy that sent it. A
  header sent by a peer that is not trusted is never read. Links in e-mails always use the configured public
  base URL, never \`X-Forwarded-Host\`.
- E-mail addresses are compared after Unicode NFC normalization and lower-casing. Password recovery
  answers at once, identically for any address; the link and the e-mail are made off the request path.
- Set-password links: invites are valid 7 days, recovery links 1 hour; each is single use, and using one
  closes the account's other open links.
- Deleting a community retires it (its data is kept, its slug and domain are freed); removing a profile
  ends the membership but keeps what the person wrote, and adding the person again restores it.
- Roles: only an owner grants or removes \`owner\`; admins manage moderator, member and finance; nobody
  changes their own role; a community always keeps at least one owner (409 otherwise).
- Nobody becomes a member without consent: adding an existing account by e-mail (staff, an invitation,
  or an anonymous checkout with that e-mail) creates an \`invited\` profile that its holder accepts or
  declines (\`POST /api/profiles/{id}/accept|decline\`); until then the account is not a member. Buying
  with one's own token is consent.
- Only the holder changes an account's login e-mail, and the change takes effect when the link sent to the
  new address is used (\`POST /api/auth/confirm-email\`); the old address is told. An e-mail is verified
  once a link sent to it was used; platform operators are the accounts with a verified e-mail listed in
  \`PLATFORM_ADMIN_EMAILS\`. Sign-up e-mails a confirmation link in the account's own transaction; signing
  in does not wait for it, but inviting or adding members, opening a call for papers, inviting its owners,
  track reviewers or speakers, and requesting a payout answer 403 \`Confirme seu e-mail antes…\` (not in the spec's §7: our wording) until the e-mail is verified.
  E-mails stored before the NFC rule were rewritten by migration 0039; two accounts that became the same
  address keep theirs as they were and are listed for operators (\`roda admin accounts email-conflicts\`).
- Member directory: staff (owner, admin, moderator) and the holder see e-mail, phone, account id and tags;
  other members see the public view (name, avatar, bio, role), and search them by name only.
- Sections and spaces: visibility \`public\` < \`private\` < \`secret\`; a space is never more open than its section.
  Lists show only what the caller may see, and each space says whether the caller may read its content
  (\`canReadContent\`). A section is removed only when empty, a space only when no content
  (such as courses) belongs to it: 409 otherwise.

## Selling
- Money is integer minor units with its currency; the business-information country decides the community
  currency (BR→BRL, PT→EUR…). Business information and payout settings go \`draft → pending → approved |
  rejected\` (\`DRAFT\`, \`PENDING\`, \`APPROVED\`, \`REJECTED\` on the wire), decided by platform operators at
  \`/api/admin/communities/{communityId}/…\`; editing approved data sends it back to \`PENDING\` (it needs a
  submit again), and submitting approved data puts it under review again (\`PENDING\`): until it is approved
  again publishing and checkout are refused (and payouts, for payout settings).
- Products start \`DRAFT\`; publishing needs approved business information in the product's currency. A
  billing option may belong to several plans (checkout then needs \`subscriptionGroupId\`); add-ons are
  monthly SUBSCRIPTION products and never billing options. Deleted products are soft-deleted.
- Checkout is Public (token optional; an anonymous buyer with a new e-mail becomes a member, with a
  set-password e-mail; one whose e-mail has an account is invited).
  The default gateway is a sandbox: \`tok_visa\` approved, \`tok_chargeDeclined\` declined (402), PIX and boleto
  pending until \`POST /api/checkout/sandbox/{chargeId}/pay\` or a gateway webhook. Stock and coupon uses are held
  in the checkout's transaction (never beyond the limit) and returned when a pending charge expires.
  \`Idempotency-Key\` (scoped to the caller) replays the first answer. Gateway webhooks are signed (the
  sandbox's with HMAC-SHA256, Standard Webhooks, 5 minutes tolerance); the sandbox pay route needs the
  buyer's or an owner's/admin's token.
- Fees: a percentage plus a fixed part per payment method (overridable per community by operators);
  installments 1..12 on cards with buyer-paid interest (Price table, exact, rounded half-even once).
  The ledger is double entry and append-only; each transaction sums to zero; a sale's net is pending until
  released (PIX at once, boleto D+1, card D+30).

## Calls for papers
- A call4papers space has a \`mode\`: \`organisers\` (default; only owner, admin or moderator open calls) or
  \`members\` (any member may open one). Whoever opens a call becomes its accepted owner. Organisers of a call
  are the community's staff and its accepted owners (an owner's rights stop at that call); track reviewers
  review one track. Owner and reviewer invitations go \`pending -> accepted | declined\` (final; a declined
  person may be invited again, same id) and are answered only by the invited person; the invitee is e-mailed.
- Calls go \`draft -> published -> closed\`, \`closed -> published\` (reopen), \`published -> draft\`
  (unpublish), through the named routes or \`PATCH /{id}/status\` (409 with the allowed moves otherwise),
  under the call's row lock. Drafts are seen only by organisers (404 for others); published and closed calls
  by whoever may read the space. A call takes submissions while \`published\` and inside its optional
  \`opensAt\`/\`closesAt\` window. Soft delete from any state: the call and everything under it answer 404.
  Tracks are soft-deleted too (submissions keep theirs); event dates are days (\`YYYY-MM-DD\`, one per day,
  optional \`startTime\` < \`endTime\`).
- Submissions (\`rascunho -> enviada\` on submit; the proposer edits only a draft, each edit kept as a version)
  belong to their speakers while drafts (404 for anyone else). Organisers see every submitted one, reviewers
  those of their tracks, speakers their own; other members get 403. From \`enviada\`: \`withdraw -> retirada\`,
  organisation \`counter-offer -> em_negociacao\` (one open offer; terms \`format\`, \`durationMinutes\`,
  \`trackId\`, \`fee\` in minor units with \`currency\`, \`note\`; fields left out carry over), retract by the open
  offer's author side (\`-> enviada\`), \`speaker-counter\` by the proposer, \`accept\` of the other side's open
  offer (\`-> aceita\`, its terms are the agreement), \`decline\` or \`decide\` (\`accept\`: an open offer is accepted,
  else the proposal's own terms stand; \`refuse\`) by the organisation, \`confirm\` (\`aceita -> confirmada\`,
  final) by an organiser or the proposer. One transition table, moves under the submission's row lock (409 with
  the allowed moves, also in each submission's \`allowedMoves\`); every offer is kept; each move e-mails the
  other side (the proposer, or the call's creator and accepted owners) through the outbox.
- Reviews (score 1..5) by reviewers of the track and organisers, never by the submission's speakers; reviewer
  names are never shown to speakers, and with the call's \`anonymousReviews\` only organisers see them, while
  reviewers do not see the speakers. Votes (integer 1..5, one per person, upserted) need the call's
  \`communityVoting\`, on \`enviada\`/\`em_negociacao\` submissions, never one's own; results and review progress
  are for organisers. Proposing and voting act as the X-ProfileId profile; organiser and reviewer rights are
  the caller's own. The speaker bank (\`/speakers\`) is for staff and call owners, without e-mails.

## Payouts, refunds, the sales list, reports and e-mail stats
- Payouts (\`/api/payouts\`): \`pending -> in_transit -> paid\`, \`pending -> canceled\` (the community),
  \`pending | in_transit -> failed\` and \`paid -> failed\` (a bank return); failures and cancels give amount and fee
  back to available. A request needs approved payout settings and \`amount + fee <= available\` (fee 200 minor
  units), checked under the row lock of the community's available balance, one open payout at a time (also a
  partial unique index). Operators list them (\`GET /api/admin/communities/{communityId}/payouts\`) and move them with \`/api/admin/communities/{communityId}/payouts/{id}/in-transit\`,
  \`/paid\`, \`/failed\` (\`reason\`). The ledger has accounts \`community_in_transit\`, \`platform_payout_fees\`,
  \`payouts_sent\`; \`GET /api/payouts/balance\` shows pending, available and in transit per currency.
- One payout path per sale: a sale Stripe Connect settles into the community's connected account (destination
  charge: the PaymentIntent's \`transfer_data.destination\`, kept as \`charges.settled_to\`; renewals alike) credits
  \`community_gateway_settled\` (the balance's \`settledByGateway\`), never pending or available, so Roda's manual
  payouts cannot pay it again. Its refunds reverse the transfer (\`reverse_transfer\`, \`refund_application_fee\`)
  and its disputes are Stripe's to reverse from the connected account: both are booked against
  \`settledByGateway\`, nothing is held from Roda's balance.
- Disputes hold money: \`charge.dispute.created\` moves the disputed amount from available to
  \`community_disputed\` (the balance's \`disputed\`; available may go below zero, so no payout takes it); a close as
  \`won\` (or an inquiry closed, a dispute prevented) gives it back; \`lost\` gives it back and posts the chargeback
  as a refund does (pending first, then available), plus the dispute fee Stripe charged (its balance transactions'
  fees, net) to \`gateway_dispute_fees\`. States \`open -> won | lost\` (\`disputes\` table, one row per Stripe
  dispute, changed under the charge's and its own row lock): a close seen first books the outcome without a hold,
  late and repeated events book nothing; the owners get \`dispute.opened\` / \`dispute.closed\` e-mails (outbox, same
  transaction). Disputes of subscription billings (renewals, retries, pay-now, changes, add-ons) are the same
  (the same \`disputes\` states, hold, release and fee); a lost one is taken back as the billing's chargeback and ends
  the subscription's access.
- Refunds (\`POST /api/manage/purchases/{id}/refund\`, owner or admin): full by default or \`amount\`, within the
  gateway's window (sandbox 180 days, 409 after); the charge's row lock serialises refunds (409 once refunded in
  full, 400 beyond what is left). The platform gives back its fee and interest in proportion; the community's part
  comes from the sale's still-pending money first (its scheduled release shrinks), then from available (may go
  below zero). A refund that completes the purchase ends one entitlement of it and releases its stock unit and
  coupon use; partial refunds keep them. The buyer gets a \`refund\` e-mail.
- \`GET /api/manage/purchases\` (owner, admin, finance) lists ONE_TIME sales (filters, keyset) with
  \`status\` \`paid | partially_refunded | refunded\`; \`/export.csv\` gives the same as RFC 4180 CSV.
- Reports (\`/api/reports/*\`, owner, admin, finance) are zero-filled series per \`day | week | month\` in a
  \`timeZone\` (by default the community's \`timezone\` setting, else UTC: days, weeks, months and the range's
  bounds are calendar periods there) with totals. Each feature answers for its own tables through a read contract
  (\`SalesStats\` in money/ledger, \`SubscriptionStats\`, \`MemberStats\`, \`EngagementStats\`, \`EventStats\`,
  \`CourseStats\`; the time zone through communities' \`CommunityTimeZone\`), one SQL aggregation per series; sales
  come from the ledger, so checkout sales and subscription renewals count alike, by payment method; MRR counts
  add-ons and counts a paused subscription 0 while paused.
- \`GET /api/emails/stats\` (owner, admin) counts the outbox: sent (written), delivered, failed (5 attempts), pending.

## Subscriptions
- States (design/states.md): \`incomplete | incomplete_expired | active | past_due | unpaid | paused | canceled\`
  with separate fields \`cancelAtPeriodEnd\`, \`pausedUntil\`, \`scheduledChange\`, \`discountPercent\`. Every move
  goes through one transition table under the subscription's row lock; a refused move answers 409
  (\`errors[0].param = "status"\`) with the allowed moves, also listed in each subscription's \`allowedMoves\`.
- Members use \`/api/subscriptions*\` on their own subscriptions only (the acting profile's; another's is 404); the
  team uses \`/api/manage/subscriptions*\` (owner and admin act; finance reads; also \`GET …/{id}/billings\`).
- Renewals are charged to the card the subscription was bought with (the card of a successful \`pay-now\` replaces
  it); PIX and boleto subscriptions have no card on file, so their renewal goes \`past_due\` and the member gets a
  payment link; \`pay-now\` takes cards only. Each period has one billing row keyed by subscription and period start,
  charged only while unpaid (the billing id is the gateway reference and the ledger key), so a renewal is charged
  once whatever the number of workers. The lifecycle runs as durable jobs (\`subscriptions.period-end\`, \`.retry\`
  on day 1, 3, 5, 7 after the failure, \`.resume\`, \`.remind\` 7 days before an annual renewal, \`.first-charge\` of
  a manual subscription); a job whose time no longer matches the row does nothing. Periods count from an anchor
  (Jan 31, Feb 28, Mar 31). Access (entitlements) follows the state: until the period end; kept through the
  retries; removed when \`unpaid\`, \`paused\` or canceled now.
- Pause removes access at once and keeps the seconds left of the period; resume gives them back from now (no
  charge), then renewals as usual. Quotes and the real calls share one computation: upgrades now pay the
  difference for the seconds left (another interval: a new period, less the unused part), add-ons their monthly
  price times the months of the period for the seconds left, after the discount, rounded half-even once.
- Payment links are single use (only a digest is stored), valid 7 days; the page they open calls \`pay-now\` with
  \`token\`. Team cancellation \`now\` may refund \`prorated\` (unused seconds of the last paid period) or \`full\`,
  through the gateway's refund and \`LedgerPosting.recordRefund\`.

## Certificates
- A space's rule (\`GET|PUT /api/certificates/spaces/{spaceId}\`) says who issues: \`staff\` (default), or also
  automatically on \`course_completion\` (courses space; courses enqueues a durable \`courses.completed\` job when
  every lesson is completed, contract \`courses/CourseCompleted.ts\`) or \`event_attendance\` (events space; events enqueues a
  durable \`events.attended\` job at a participant's first check-in, contract \`events/EventAttended.ts\`: issued at
  check-in, not at the event's end). Staff may always issue by hand.
- Templates: \`draft -> active -> archived\` (transition table in \`certificates/Policy.ts\`, refused moves 409 with the
  allowed ones); \`draft\` and \`active\` are editable; duplicate makes a new draft; preview renders with sample data
  and a PREVIEW watermark and stores nothing. Fonts come from \`@fontsource/*\` npm packages (no download at run
  time), unwrapped from WOFF once per process and embedded (subset) in every PDF. Logo and signature are
  \`data:\` URLs of PNG or JPEG checked by their bytes, at most 256 KB, kept in the \`BlobStore\` port.
- \`POST /api/certificates\` answers 202 with the batch; one row per recipient is written in the request's
  transaction (a unique index on live certificates per template and profile skips holders and makes re-issuing
  idempotent), then up to four durable jobs per batch claim certificates one at a time (\`FOR UPDATE SKIP
  LOCKED\` with a 30 s lease), render the PDF outside any transaction, store it, and in one transaction mark the row
  \`issued\` (only if the same attempt still holds it), count it in the batch and write the e-mail to the outbox:
  a killed process loses nothing and issues nobody twice. Three failed attempts make a certificate \`failed\`;
  \`retry\` reopens it and its batch.
- Files: the PDF (pdf-lib + fontkit: vector text, A4 or Letter by \`pageSize\`, the template's orientation, QR code
  of the verification page drawn as one vector path) and PNGs (satori + resvg: the 1200×630 card and the full page,
  rendered on first request and kept). \`/pdf\` and \`/image\` answer 302 to \`/api/certificates/files/{token}\`, an
  HMAC-signed link valid 10 minutes (key derived from the JWT secret), whose body is streamed from the store with its
  \`Content-Length\` (a file is never held whole in memory to be served).
- Storage: the \`BlobStore\` port, chosen by \`BLOB_URL\`. Unset: on PostgreSQL (\`DATABASE_URL\`) the database itself
  (tables \`blobs\` and \`blob_chunks\`, 256 KB a row, a file written in one transaction), so every server process on
  the database serves the files any of them made; on the embedded database the folder \`DATA_DIR/blobs\` (memory with
  \`DATA_DIR=memory\`). \`BLOB_URL=postgres\` chooses the database (on the embedded one too),
  \`file:///absolute/folder\` a folder (shared storage mounted on every machine), \`s3://bucket/prefix\` an
  S3-compatible bucket (\`AWS_REGION\`, \`AWS_ACCESS_KEY_ID\`/\`AWS_SECRET_ACCESS_KEY\` or the SDK's default credentials;
  \`AWS_ENDPOINT_URL_S3\` or \`AWS_ENDPOINT_URL\` for MinIO, R2 and the like, addressed path-style). Anything else
  stops the start with a message naming \`BLOB_URL\`. Every process on one database needs the same \`BLOB_URL\`
  (any of them runs the rendering jobs). Servers that moved from the folder to the database keep their
  older files only with \`BLOB_URL=file:///…/blobs\`.
- Verification codes: 80 random bits as 16 Crockford base32 characters (\`XXXX-XXXX-XXXX-XXXX\`; case, dashes and
  I/L/O look-alikes forgiven). The public page \`/certificates/{code}\` is server-rendered HTML with Open Graph tags
  (\`og:image\` = \`/certificates/{code}/image.png\`) and \`noindex\` unless the holder or staff turn indexing on. Each
  certificate is an Open Badges 3.0 \`OpenBadgeCredential\` served as a VC-JWT (\`/certificates/{code}/credential.jwt\`,
  EdDSA/Ed25519, one key per community made on first use, private half kept encrypted with AES-256-GCM), verifiable
  with \`/.well-known/jwks.json\`; the recipient is identified by a salted SHA-256 of the e-mail.
- Members see their own certificates (detail, files, indexing; others' answer 404); \`/mine\` lists the account's
  certificates in every community without \`X-CommunityId\`; staff list, revoke (reason kept, final), reissue
  (\`issued -> superseded\`, a new certificate with the current profile name; the old page links to it), resend the
  e-mail and delete \`failed\` or \`revoked\` ones.

## API keys
- For integrations and scripts that must not expire with a login (\`POST /api/api-keys\`, owners and admins). A
  key acts in one community as the account that made it, with that account's role at each request (the role is
  its ceiling: demote or remove the creator and the key loses the same rights), narrowed by its scopes. Each
  operation needs one scope: its area (\`community\`: the community, members, sections, spaces, reports;
  \`content\`: feed, posts, events, search, calls for papers; \`learning\`: courses and certificates; \`commerce\`:
  products, plans, coupons, checkout, subscriptions, purchases) with \`:read\` for GET and \`:write\` for the rest;
  money (balance, ledger, payouts, fees, selling accounts, and the sales, subscriptions and overview reports)
  only with \`money:read\`, and never a money write. Sign-in and account routes, sessions, OAuth connections, the
  keys themselves and the operator's routes take no key (403 \`api_key_route_refused\`).
- The key is checked in the database on every request (revocation and expiry hold from the next request, on
  every process), costs one statement to read and one to count against its limit (\`apiKey\`, 6,000 requests a
  minute per key by default, shown in the \`RateLimit\` headers of its answers unless a route shows a limit of
  its own). Only its SHA-256 is kept.
- At \`/mcp\` a key acts as at \`/api\`, each tool needing its route's scope; the stdio server takes it as
  \`RODA_API_KEY\` and checks it again before every tool call. Tool calls made with a key are in the MCP audit
  with the client \`API key rk_xxxxx\` (its prefix).

## MCP and OAuth 2.1
- Roda is its own authorization server (issuer \`PUBLIC_BASE_URL\`) for the MCP resource \`PUBLIC_BASE_URL/mcp\`:
  discovery (RFC 9728 at \`/.well-known/oauth-protected-resource\` and \`…/mcp\`, RFC 8414), dynamic registration of
  public clients (RFC 7591) or Client ID Metadata Documents, authorization code with PKCE S256 only, exact redirect
  matching (a loopback port may differ), \`iss\` on every authorization response (RFC 9207), \`resource\` equal to the
  MCP resource (RFC 8707), revocation (RFC 7009). These endpoints answer \`{ error, error_description }\`, not the
  envelope.
- Scopes: \`read\` (tools that change nothing) and \`write\` (every tool); both when none is asked.
- Tokens are opaque (\`roda_mcp_at_…\`, \`roda_mcp_rt_…\`), stored only as SHA-256 hashes, like codes. Access tokens
  last 1 hour, refresh tokens 30 days and rotate on every use; codes are single use and last 60 s; authorization
  requests 10 minutes. A code used twice, or a rotated refresh token presented again, revokes the connection.
  MCP tokens are not accepted by \`/api/*\`, nor \`/api\` tokens (spec §5) at \`/mcp\` (API keys are, see above).
- A connection is bound to the account and the community chosen on the consent page: the assistant acts as the
  account's own profile there, with its role, checked again on every request (an account that left the community
  loses access at once).
`.trim()
