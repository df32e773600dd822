import type { Payloads } from "./payload"

export const certificatePayloads: Payloads = {}
