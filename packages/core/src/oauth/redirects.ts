const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"])

/** Schemes never accepted as a native app's private-use redirect. */
const REFUSED_SCHEMES = new Set([
  "javascript:",
  "data:",
  "file:",
  "vbscript:",
  "about:",
  "blob:",
  "ftp:",
  "ws:",
  "wss:"
])

const parse = (value: string) => (URL.canParse(value) ? new URL(value) : undefined)

export const isLoopback = (url: URL) => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname)

/**
 * Why a redirect URI cannot be registered, or undefined when it can: `https`, `http` on a loopback
 * host (`127.0.0.1`, `[::1]`, `localhost`), or a private-use scheme (RFC 8252); never a fragment.
 */
export const redirectUriProblem = (value: string): string | undefined => {
  const url = parse(value)
  if (url === undefined) return `${value} is not an absolute URI`
  if (value.includes("#")) return `${value} must not contain a fragment`
  if (url.protocol === "https:") return url.hostname === "" ? `${value} has no host` : undefined
  if (url.protocol === "http:") {
    return isLoopback(url)
      ? undefined
      : `${value}: http is allowed only on a loopback host (127.0.0.1, [::1], localhost)`
  }
  if (REFUSED_SCHEMES.has(url.protocol)) return `${value}: the scheme ${url.protocol} is not allowed`
  return undefined
}

/**
 * Exact matching (string equality); for a loopback `http` redirect the port may differ (RFC 8252
 * §7.3: native apps listen on an ephemeral port).
 */
export const redirectMatches = (registered: ReadonlyArray<string>, given: string): boolean => {
  if (registered.includes(given)) return true
  const url = parse(given)
  if (url === undefined || !isLoopback(url)) return false
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`
  return registered.some((candidate) => {
    const other = parse(candidate)
    return other !== undefined && isLoopback(other) && withoutPort(other) === withoutPort(url)
  })
}

/** `redirectUri` with `params` added to its query (existing parameters kept). */
export const withParams = (redirectUri: string, params: Record<string, string | null | undefined>) => {
  const url = new URL(redirectUri)
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined) url.searchParams.set(key, value)
  }
  return url.toString()
}
