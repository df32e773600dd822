import type { Roda } from "../../src/index"

/**
 * A call through `roda`'s web handler answering `data` (or throwing on a status of 300 and up): for
 * child processes of the tests and benches, which seed what they need through the API.
 */
export const handlerCall =
  (roda: Roda) => async (method: string, path: string, body?: unknown, token?: string, community?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json" }
    if (token) headers.authorization = `Bearer ${token}`
    if (community) headers["x-communityid"] = community
    const response = await roda.handler(
      new Request(`http://roda.test${path}`, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body)
      })
    )
    const json: any = await response.json()
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
    return json.data
  }
