// The sweep's one way to send a request: over HTTP to a running server, redirects not followed, the
// answer read as text (and as JSON when it is JSON).

/**
 * Sends `method path` to `base`. `as` is a caller ({ token, community, profile }: any may be absent);
 * `json` is sent as JSON, `raw` as it is (with `contentType`, default JSON); `headers` come last.
 */
export const send = async (base, request, retried = false) => {
  const { method, path, as = {}, json, raw, contentType, headers = {} } = request
  const sent = {
    ...(as.token === undefined ? {} : { authorization: `Bearer ${as.token}` }),
    ...(as.community === undefined ? {} : { "x-communityid": as.community }),
    ...(as.profile === undefined ? {} : { "x-profileid": as.profile })
  }
  let body
  if (json !== undefined) body = JSON.stringify(json)
  else if (raw !== undefined) body = raw
  if (body !== undefined) sent["content-type"] = contentType ?? "application/json"
  const started = performance.now()
  try {
    const reply = await fetch(`${base}${path}`, {
      method,
      headers: { ...sent, ...headers },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(60_000)
    })
    // An event stream never ends: its answer is the status and headers.
    if ((reply.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
      await reply.body?.cancel()
      return {
        status: reply.status,
        text: "",
        body: undefined,
        headers: reply.headers,
        ms: performance.now() - started
      }
    }
    const text = await reply.text()
    let parsed = text
    if ((reply.headers.get("content-type") ?? "").includes("json")) {
      try {
        parsed = JSON.parse(text)
      } catch {
        // left as text: the classifier sees what came
      }
    }
    return { status: reply.status, text, body: parsed, headers: reply.headers, ms: performance.now() - started }
  } catch (error) {
    const cause = error?.cause?.code ?? error?.cause?.message ?? ""
    // A kept-alive connection the server closed as the request left (a race of idle sockets, worse on a
    // loaded machine) is sent once more on a new one; a server that drops the request again, or a
    // timeout, is failing it: counted as a 5xx.
    if (!retried && /ECONNRESET|EPIPE|UND_ERR_SOCKET|other side closed/.test(String(cause))) {
      const again = await send(base, request, true)
      return { ...again, resent: true }
    }
    const text = `the request failed: ${String(error)} ${cause}`
    return { status: 599, text, body: undefined, headers: new Headers(), ms: 0 }
  }
}

/** Runs `work` over `items`, `width` at a time, in order of start. */
export const inParallel = async (items, width, work) => {
  let next = 0
  const lanes = Array.from({ length: Math.min(width, items.length) }, async () => {
    while (next < items.length) {
      const item = items[next++]
      await work(item)
    }
  })
  await Promise.all(lanes)
}
