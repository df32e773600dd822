/**
 * A Roda process for `bench/notificationFanOut.mjs`, run with `node --import tsx` on `DATABASE_URL`
 * (already migrated and seeded), with no job runner: the fan-out jobs a post queues stay queued.
 * `serve <port>`: Roda's web handler behind a plain `node:http` server on 127.0.0.1:`port` (the post's
 * latency without the fan-out running), until stopped. `count <token> <community> <followed> <empty>
 * <posts>`: tracing on, counts the statements of `posts` `POST /api/content` in each space
 * (`test/support/queries.ts`; `notify`: those under `Notify.notifyFollowers`), prints them as JSON and exits.
 */
import { createServer } from "node:http"
import { defaultOptions, makeRoda, RATE_LIMITS_OFF, secret } from "../../node/index"
import { statements } from "../support/queries"

const [phase, ...rest] = process.argv.slice(2)
const roda = makeRoda({
  database: { _tag: "Postgres" as const, url: secret(process.env.DATABASE_URL!) },
  options: defaultOptions({
    jwtSecret: secret(process.env.JWT_SECRET!),
    publicBaseUrl: "http://roda.test",
    rateLimits: RATE_LIMITS_OFF,
    runJobs: false
  }),
  ...(phase === "count" ? { tracing: true } : {})
})
await roda.ready()

const post = (token: string, community: string, spaceId: string, n: number) =>
  roda.handler(
    new Request("http://roda.test/api/content", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "x-communityid": community },
      body: JSON.stringify({ spaceId, title: `Contagem ${n}`, body: "Uma publicação para contar as instruções." })
    })
  ).then(async (response) => {
    if (response.status !== 201 && response.status !== 200) {
      throw new Error(`${response.status} ${await response.text()}`)
    }
  })

if (phase === "count") {
  const [token, community, followed, empty, postsText] = rest as [string, string, string, string, string]
  const result: Record<string, Array<{ n: number; transactions: number; notify: number }>> = { followed: [], empty: [] }
  for (let i = 0; i < Number(postsText); i++) {
    for (const [name, space] of [["empty", empty], ["followed", followed]] as const) {
      const { inSpans, n, transactions } = await statements(() => post(token, community, space, i), {
        spans: ["Notify.notifyFollowers"]
      })
      result[name]!.push({ n, transactions, notify: inSpans })
    }
  }
  console.log(`RESULT ${JSON.stringify(result)}`)
  await roda.dispose()
  process.exit(0)
} else {
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", async () => {
      const headers = new Headers()
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") headers.set(name, value)
      }
      const body = chunks.length === 0 ? null : Buffer.concat(chunks)
      const answer = await roda.handler(
        new Request(`http://roda.test${request.url}`, { method: request.method!, headers, body })
      )
      const bytes = Buffer.from(await answer.arrayBuffer())
      response.writeHead(answer.status, { "content-type": "application/json", "content-length": bytes.length })
      response.end(bytes)
    })
  })
  server.listen(Number(rest[0]), "127.0.0.1", () => console.log("SERVING"))
  process.on("SIGTERM", () => {
    server.close()
    void roda.dispose().then(() => process.exit(0))
  })
}
