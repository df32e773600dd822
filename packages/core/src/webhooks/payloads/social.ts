import type { Payloads } from "./payload"

export const socialPayloads: Payloads = {}
