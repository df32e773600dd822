/** How long a stored `Idempotency-Key` answer is replayed for; after that the key may be used again. */
export const IDEMPOTENCY_KEY_HOURS = 24

/** Every how many claims a process also deletes up to 100 expired keys (in the claiming statement). */
export const IDEMPOTENCY_SWEEP_EVERY = 100
