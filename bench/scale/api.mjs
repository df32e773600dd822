// What the scale benches share: the built server on the seeded database, and a client of its API.
import { join } from "node:path"
import { performance } from "node:perf_hooks"
import { startRoda } from "../harness.mjs"

/** The built server (one process) on the seeded database, the seed's owner a platform admin. */
export const startScaleServer = ({ root, dir, label, port, databaseUrl, seeded }) =>
  startRoda({
    mainJs: join(root, "packages/http-node/dist/main.js"),
    dir,
    label,
    port,
    extra: { DATABASE_URL: databaseUrl, PLATFORM_ADMIN_EMAILS: seeded.owner.email }
  })

export const headersOf = (communityId, token, body) => ({
  "x-communityid": communityId,
  ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
  ...(body === undefined ? {} : { "content-type": "application/json" })
})

/** Calls of the API at `base` in community `communityId`: status, JSON body (or {}) and milliseconds. */
export const apiClient = (base, communityId) => {
  const call = async (token, method, path, body) => {
    const began = performance.now()
    const response = await fetch(`${base}${path}`, {
      method,
      headers: headersOf(communityId, token, body),
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    const ms = performance.now() - began
    let json = {}
    try {
      json = JSON.parse(text)
    } catch {
      // not JSON: {}
    }
    return { status: response.status, json, ms }
  }
  const login = async (email, password) => {
    const { status, json } = await call(undefined, "POST", "/api/auth/login", { email, password })
    if (status !== 200) throw new Error(`login ${email}: ${status}`)
    return json.data.token
  }
  return { call, login }
}

/** The nearest-rank percentile `p` of ascending `sorted`. */
export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
