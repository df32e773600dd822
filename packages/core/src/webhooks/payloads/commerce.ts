import type { Payloads } from "./payload"

export const commercePayloads: Payloads = {}
