import type { Payloads } from "./payload"

export const payoutPayloads: Payloads = {}
