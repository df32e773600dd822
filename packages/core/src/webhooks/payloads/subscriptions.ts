import type { Payloads } from "./payload"

export const subscriptionPayloads: Payloads = {}
