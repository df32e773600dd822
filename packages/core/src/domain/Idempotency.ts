/** How long a stored `Idempotency-Key` answer is replayed for; after that the key may be used again. */
export const IDEMPOTENCY_KEY_HOURS = 24
