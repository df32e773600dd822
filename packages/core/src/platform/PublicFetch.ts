import { Context, Layer } from "effect"

export interface PublicFetchInit {
  readonly headers?: Record<string, string> | undefined
  readonly signal?: AbortSignal | undefined
  /** Loopback addresses may be reached too (development and tests: plain-HTTP loopback documents). */
  readonly loopback?: boolean | undefined
  /** Any address may be reached: loopback and private networks too (`WEBHOOKS_ALLOW_PRIVATE`, development). */
  readonly anyAddress?: boolean | undefined
}

export interface PublicPostInit extends PublicFetchInit {
  readonly body: string
}

/** An answer: its status and its body, read as it arrives (a caller may stop early). */
export interface PublicAnswer {
  readonly status: number
  readonly body: AsyncIterable<Uint8Array>
}

/**
 * GET of a URL someone else named (a Client ID Metadata Document), a port: only the public internet
 * may be reached. Redirects are not followed. `@roda/core/node` checks every address a name resolves
 * to and connects only to a public one, so a public-looking name that resolves into the server's own
 * network is refused as a literal internal address is. `PublicFetch.web` is the web-standard fetch
 * for runtimes without a resolver: there only the name is checked (`isPublicHost`), before the call.
 */
export class PublicFetch extends Context.Tag("@roda/core/PublicFetch")<PublicFetch, {
  readonly get: (url: string, init: PublicFetchInit) => Promise<PublicAnswer>
  /** A POST (webhook deliveries), under the same rules as `get`. */
  readonly post: (url: string, init: PublicPostInit) => Promise<PublicAnswer>
}>() {
  static readonly web = Layer.succeed(PublicFetch, {
    get: async (url, init) => {
      const response = await fetch(url, {
        redirect: "error",
        ...(init.headers ? { headers: init.headers } : {}),
        ...(init.signal ? { signal: init.signal } : {})
      })
      return { status: response.status, body: bodyOf(response) }
    },
    post: async (url, init) => {
      const response = await fetch(url, {
        method: "POST",
        redirect: "manual",
        body: init.body,
        ...(init.headers ? { headers: init.headers } : {}),
        ...(init.signal ? { signal: init.signal } : {})
      })
      return { status: response.status, body: bodyOf(response) }
    }
  })
}

const nothing = async function*(): AsyncIterable<Uint8Array> {}

const bodyOf = (response: Response): AsyncIterable<Uint8Array> =>
  response.body === null ? nothing() : response.body as unknown as AsyncIterable<Uint8Array>
