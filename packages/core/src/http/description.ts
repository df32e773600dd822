/** The OpenAPI description: the envelope, the headers, and decisions the spec leaves open. */
export const description = `
Roda is a community-platform API. Every route lives under \`/api\`.

## Envelope
- Success: \`{"success": true, "message": "…", "data": …}\`; creation answers 201 with \`data.id\`.
- Lists: \`data\` is an array and \`pagination\` is \`{"limit": n, "nextCursor": "…" | null}\`: keyset
  pagination with \`?limit=\` (default 20, max 100) and \`?cursor=\` (the \`nextCursor\` of the previous page).
- Errors: \`{"success": false, "message": "…", "errors": [{"param", "msg", "location"}]}\`; \`errors\` comes
  with every 400. Malformed JSON and wrong types answer 400, bodies over 1 MB 413, unknown routes 404.

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

## Decisions
- Ids are UUIDv7. A malformed id answers 400; another community's id answers 404.
- Money is an integer number of minor units with an ISO 4217 currency.
- Sign-in failures are limited per account and per client address: 429 with \`Retry-After\`.
- Set-password links: invites are valid 7 days, recovery links 1 hour; each is single use, and using one
  closes the account's other open links.
- Deleting a community retires it (its data is kept, its slug and domain are freed); removing a profile
  ends the membership but keeps what the person wrote, and adding the person again restores it.
- Roles: only an owner grants or removes \`owner\`; admins manage moderator, member and finance; nobody
  changes their own role; a community always keeps at least one owner (409 otherwise).
- The login e-mail of an account that belongs to other communities is changed only by its holder.
- Sections and spaces: visibility \`public\` < \`private\` < \`secret\`; a space is never more open than its section.
  Lists show only what the caller may see, and each space says whether the caller may read its content
  (\`canReadContent\`). A section is removed only when empty, a space only when no content
  (such as courses) belongs to it: 409 otherwise.

## Selling
- Money is integer minor units with its currency; the business-information country decides the community
  currency (BR→BRL, PT→EUR…). Business information and payout settings go \`draft → pending → approved |
  rejected\`, decided by platform operators at \`/api/admin/communities/{communityId}/…\`; editing approved data
  sends it back to \`pending\`, and until it is approved again publishing and checkout are refused.
- Products start \`DRAFT\`; publishing needs approved business information in the product's currency. A
  billing option belongs to one plan; add-ons are never billing options. Deleted products are soft-deleted.
- Checkout is Public (token optional; an anonymous buyer becomes a member, with a set-password e-mail).
  The default gateway is a sandbox: \`tok_visa\` approved, \`tok_chargeDeclined\` declined (402), PIX and boleto
  pending until \`POST /api/checkout/sandbox/{chargeId}/pay\` or a gateway webhook. Stock and coupon uses are held
  in the checkout's transaction (never beyond the limit) and returned when a pending charge expires.
  \`Idempotency-Key\` replays the first answer.
- Fees: a percentage plus a fixed part per payment method (overridable per community by operators);
  installments 1..12 on cards with buyer-paid interest (Price table, exact, rounded half-even once).
  The ledger is double entry and append-only; each transaction sums to zero; a sale's net is pending until
  released (PIX at once, boleto D+1, card D+30).
`.trim()
