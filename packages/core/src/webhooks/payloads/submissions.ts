import type { Payloads } from "./payload"

export const submissionPayloads: Payloads = {}
