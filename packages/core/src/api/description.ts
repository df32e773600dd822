/** The OpenAPI description: the envelope, the headers, and decisions the spec leaves open. */
export const description = `
Roda is a community-platform API. Every route lives under \`/api\`.

## Envelope
- Success: \`{"success": true, "message": "…", "data": …}\`; creation answers 201 with \`data.id\`.
- Lists: \`data\` is an array and \`pagination\` is \`{"limit": n, "nextCursor": "…" | null}\`: keyset
  pagination with \`?limit=\` (default 20, max 100) and \`?cursor=\` (the \`nextCursor\` of the previous page).
- Errors: \`{"success": false, "message": "…", "errors": [{"param", "msg", "location"}]}\`; \`errors\` comes
  with every 400. Malformed JSON and wrong types answer 400, and so does a body field the route does not
  declare (\`errors[].param\` is its path, e.g. \`access.foo\`): a field is never silently ignored.
  Bodies over 1 MB answer 413, unknown routes 404.
  JSON nested more than 64 levels (arrays and objects) answers 400 before it is read. A \`cursor\` that was
  not given by the API (or was altered) answers 400 "cursor is not valid".
- A lost database connection answers 503 with \`Retry-After\` (never 500); see "Writes and retries".

## Headers
- \`Authorization: Bearer <JWT>\`: required except on Public routes (where it is optional, and an invalid
  one is still refused with 401). Tokens last 7 days; there is no refresh token.
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
- Money is an integer number of minor units with an ISO 4217 currency.
- Sign-in failures are limited per account and client address (5 in 15 minutes), per account from anywhere
  (100) and per address (30): 429 with \`Retry-After\`. Each attempt is reserved before the password is
  checked, so parallel guesses cannot pass the limit; a wrong guess from elsewhere does not lock the
  holder out of their own address.
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
  \`PLATFORM_ADMIN_EMAILS\`.
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
  submit again), and until it is approved again publishing and checkout are refused.
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
`.trim()
