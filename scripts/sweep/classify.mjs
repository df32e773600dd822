// What the black-box sweep counts as a finding. Pure functions of what was sent and what came back,
// so that a unit test can show each one fires (packages/http-node/test/sweepClassify.test.ts).
import { excerptOf, serverFault } from "./variants.mjs"

const ok = (status) => status >= 200 && status < 300

/** A finding, as printed: the pass, the request, the caller and what came back. */
export const finding = (probe, reply, reason) => ({
  pass: probe.pass,
  method: probe.method,
  path: probe.path,
  variant: probe.variant,
  role: probe.role,
  status: reply.status,
  reason,
  // binary answers (a PNG) printed as text would garble the report
  excerpt: excerptOf(reply.body ?? reply.text).replace(/[^\x20-\x7E\u00A0-\uFFFC]/g, "?")
})

export const describeFinding = (f) =>
  `[${f.pass}] ${f.method} ${f.path.slice(0, 200)}${
    f.variant ? ` [${f.variant}]` : ""
  } as ${f.role} -> ${f.status} ${f.reason}: ${f.excerpt}`

/**
 * A mark of the other community in an answer: its marker (in every name and text it holds), or one of
 * its ids that the request did not carry itself (an id the caller sent may be echoed in an error).
 */
export const leakIn = (text, sent, other) => {
  if (text.includes(other.marker)) return `holds the other community's marker ${other.marker}`
  for (const id of other.ids) {
    if (text.includes(id) && !sent.includes(id)) return `holds the other community's id ${id}`
  }
  return undefined
}

/**
 * Routes that answer about a resource whatever community the header names, by design (their
 * descriptions say so): a certificate is verified by anyone who holds its code, and the issuers'
 * public keys of every community are published for verifiers.
 */
export const crossCommunityByDesign = new Set([
  "GET /api/certificates/verify/{code}",
  "GET /certificates/{code}",
  "GET /certificates/{code}/image.png",
  "GET /certificates/{code}/credential.jwt",
  "GET /.well-known/jwks.json"
])

/** The text of a request, as far as ids go: path, body and headers. */
export const sentText = (probe) =>
  `${probe.path} ${probe.raw ?? (probe.json === undefined ? "" : JSON.stringify(probe.json))} ${
    JSON.stringify(probe.headers ?? {})
  }`

/**
 * One answer, every rule that applies to it: no 5xx and the envelope on /api errors; nothing of the
 * other community in it; and with the other community's id in the path, no 2xx (it must be 404, or an
 * earlier check's 400/401/403).
 */
export const classify = (probe, reply, other) => {
  const found = []
  const fault = serverFault(probe.path, reply.status, reply.body)
  if (fault !== undefined) found.push(finding(probe, reply, fault))
  if (other !== undefined && !crossCommunityByDesign.has(probe.operation)) {
    const leak = leakIn(reply.text, sentText(probe), other)
    if (leak !== undefined) found.push(finding(probe, reply, `cross-community read: the answer ${leak}`))
    else if (probe.otherIdInPath === true && ok(reply.status)) {
      found.push(finding(probe, reply, "answered 2xx on another community's resource (must be 404)"))
    }
  }
  return found
}

/** Answers of a read, as compared before and after a refused write (volatile ones left out). */
export const changedReads = (before, after) =>
  [...before.keys()].filter((path) => after.has(path) && before.get(path) !== after.get(path))

/** A write the caller was refused (any answer but 2xx) that changed what the owner reads. */
export const classifyRefusedWrite = (probe, reply, before, after) => {
  if (ok(reply.status)) return []
  const changed = changedReads(before, after)
  return changed.length === 0
    ? []
    : [finding(probe, reply, `refused with ${reply.status} yet changed ${changed.slice(0, 3).join(", ")}`)]
}
