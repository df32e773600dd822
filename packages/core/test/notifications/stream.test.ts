import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { NotificationSignals } from "../../src/notifications/Signals"
import { type SocialCommunity, socialCommunity } from "../social/setup"
import { client, startRoda } from "../support/harness"
import { inbox, mention, postStatus } from "./setup"

/** Issue 55, items 1 and 3: `GET /api/notifications/stream` (platform.md "Notifications"). */
const roda = startRoda({ notificationHeartbeatSeconds: 1 })
const api = client(roda)

const WAIT_MS = 10_000
let server: Server
let base = ""
let setup: SocialCommunity
let other: SocialCommunity

beforeAll(async () => {
  server = createServer((request, response) => {
    const abort = new AbortController()
    response.on("close", () => abort.abort())
    void (async () => {
      const answer = await roda.handler(
        new Request(`${base}${request.url ?? "/"}`, {
          method: request.method ?? "GET",
          headers: Object.entries(request.headers).flatMap(([name, value]) =>
            typeof value === "string" ? [[name, value] as [string, string]] : []
          ),
          signal: abort.signal
        }),
        { clientAddress: "127.0.0.1" }
      )
      response.writeHead(answer.status, Object.fromEntries(answer.headers))
      if (answer.body === null) return response.end()
      const reader = answer.body.getReader()
      abort.signal.addEventListener("abort", () => void reader.cancel().catch(() => undefined))
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }))
        if (done) return response.end()
        response.write(value)
      }
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`
  setup = await socialCommunity(api, "Ao vivo")
  other = await socialCommunity(api, "Outra")
})
afterAll(async () => {
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
  await roda.dispose()
})

interface Event {
  readonly id?: string
  readonly event?: string
  readonly data?: any
  readonly comment?: string
  readonly at: number
}

/** Opens the stream as `user`: the events as they arrive, parsed, and how to wait for one and close. */
const open = async (user: { token: string }, community: { id: string }, headers: Record<string, string> = {}) => {
  const abort = new AbortController()
  const reply = await fetch(`${base}/api/notifications/stream`, {
    headers: { authorization: `Bearer ${user.token}`, "x-communityid": community.id, ...headers },
    signal: abort.signal
  })
  const events: Array<Event> = []
  const waiters = new Set<() => void>()
  let text = ""
  const reading = (async () => {
    const decoder = new TextDecoder()
    const reader = reply.body!.getReader()
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      text += decoder.decode(value, { stream: true })
      let end: number
      while ((end = text.indexOf("\n\n")) >= 0) {
        const block = text.slice(0, end)
        text = text.slice(end + 2)
        const fields: Record<string, string> = {}
        for (const line of block.split("\n")) {
          const colon = line.indexOf(":")
          fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, "")
        }
        events.push({
          at: performance.now(),
          ...(fields[""] !== undefined ? { comment: fields[""] } : {}),
          ...(fields.id !== undefined ? { id: fields.id } : {}),
          ...(fields.event !== undefined ? { event: fields.event } : {}),
          ...(fields.data !== undefined ? { data: JSON.parse(fields.data) } : {})
        })
        for (const wake of waiters) wake()
      }
    }
  })().catch(() => undefined)
  /** The first event matching `test` (waiting up to `ms`). */
  const next = (test: (event: Event) => boolean, ms = WAIT_MS) =>
    new Promise<Event>((resolve, reject) => {
      const check = () => {
        const found = events.find(test)
        if (found) {
          waiters.delete(check)
          clearTimeout(timer)
          resolve(found)
        }
      }
      const timer = setTimeout(() => {
        waiters.delete(check)
        reject(new Error(`no such event within ${ms} ms; got ${JSON.stringify(events)}`))
      }, ms)
      waiters.add(check)
      check()
    })
  const notifications = () => events.filter((event) => event.event === "notification")
  const close = async () => {
    abort.abort()
    await reading
  }
  return { reply, events, next, notifications, close }
}

const subscribers = () => roda.runtime.runPromise(Effect.flatMap(NotificationSignals, (signals) => signals.subscribers))

/** Until `test` holds (checked every 50 ms, up to 10 s). */
const eventually = async (test: () => Promise<boolean>) => {
  const until = performance.now() + WAIT_MS
  while (!(await test())) {
    if (performance.now() > until) throw new Error("timed out")
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe("GET /api/notifications/stream", () => {
  it("sends a mention by another member as it is written, as the inbox lists it", async () => {
    const stream = await open(setup.bruno, setup.community)
    try {
      expect(stream.reply.status).toBe(200)
      expect(stream.reply.headers.get("content-type")).toMatch(/^text\/event-stream/)
      await eventually(async () => (await subscribers()) > 0)
      const written = performance.now()
      await postStatus(api, setup, setup.alice, `Ao vivo, ${mention(setup.bruno, "Bruno")}!`)
      const event = await stream.next((e) => e.event === "notification")
      const delay = event.at - written
      console.info(`notification stream: write-to-arrival ${delay.toFixed(0)} ms (request included)`)
      expect(delay).toBeLessThan(5000)
      const [listed] = await inbox(api, setup, setup.bruno, "?limit=1")
      expect(event.data).toEqual(listed)
      expect(event.id).toBe(listed.id)
      expect(event.data.kind).toBe("mention")
    } finally {
      await stream.close()
    }
  })

  it("resumes after Last-Event-ID: what was missed first, oldest first, then live", async () => {
    const first = await open(setup.bruno, setup.community)
    await eventually(async () => (await subscribers()) > 0)
    await postStatus(api, setup, setup.alice, `Um ${mention(setup.bruno)}`)
    const seen = await first.next((e) => e.event === "notification")
    await first.close()
    await postStatus(api, setup, setup.alice, `Dois ${mention(setup.bruno)}`)
    await postStatus(api, setup, setup.alice, `Três ${mention(setup.bruno)}`)
    const resumed = await open(setup.bruno, setup.community, { "last-event-id": seen.id! })
    try {
      await resumed.next(() => resumed.notifications().length >= 2)
      expect(resumed.notifications().map((e) => e.data.subject.title)).toEqual(["Dois @Nome", "Três @Nome"])
      await postStatus(api, setup, setup.alice, `Quatro ${mention(setup.bruno)}`)
      await resumed.next(() => resumed.notifications().length >= 3)
      expect(resumed.notifications().map((e) => e.data.subject.title)).toEqual([
        "Dois @Nome",
        "Três @Nome",
        "Quatro @Nome"
      ])
    } finally {
      await resumed.close()
    }
  })

  it("never sends another member's notifications, nor another community's", async () => {
    const alice = await open(setup.alice, setup.community)
    const brunoElsewhere = await open(other.bruno, other.community)
    const bruno = await open(setup.bruno, setup.community)
    try {
      await eventually(async () => (await subscribers()) >= 3)
      await postStatus(api, setup, setup.moderator, `Só para ${mention(setup.bruno)}`)
      const event = await bruno.next((e) => e.event === "notification")
      expect(event.data.subject.title).toBe("Só para @Nome")
      // A heartbeat after the write: whatever the others would have been sent was sent by then.
      await alice.next((e) => e.comment === "heartbeat" && e.at > event.at)
      await brunoElsewhere.next((e) => e.comment === "heartbeat" && e.at > event.at)
      expect(alice.notifications()).toEqual([])
      expect(brunoElsewhere.notifications()).toEqual([])
    } finally {
      await Promise.all([alice.close(), brunoElsewhere.close(), bruno.close()])
    }
  })

  it("sends a heartbeat comment at the configured interval (notificationHeartbeatSeconds)", async () => {
    const stream = await open(setup.alice, setup.community)
    try {
      const one = await stream.next((e) => e.comment === "heartbeat")
      const two = await stream.next((e) => e.comment === "heartbeat" && e !== one)
      expect(two.at - one.at).toBeGreaterThan(500)
    } finally {
      await stream.close()
    }
  })

  it("refuses a request without a token (401) and a non-member (403)", async () => {
    const anonymous = await fetch(`${base}/api/notifications/stream`, {
      headers: { "x-communityid": setup.community.id }
    })
    expect(anonymous.status).toBe(401)
    expect((await anonymous.json()).success).toBe(false)
    const stranger = await fetch(`${base}/api/notifications/stream`, {
      headers: { authorization: `Bearer ${other.alice.token}`, "x-communityid": setup.community.id }
    })
    expect(stranger.status).toBe(403)
    await stranger.body?.cancel()
  })

  it("ends the stream when the client leaves: no subscription is left behind", async () => {
    await eventually(async () => (await subscribers()) === 0)
    const streams = await Promise.all([1, 2, 3].map(() => open(setup.bruno, setup.community)))
    await eventually(async () => (await subscribers()) === 3)
    await Promise.all(streams.map((stream) => stream.close()))
    await eventually(async () => (await subscribers()) === 0)
  })
})

// Another process on the same PostgreSQL database: its write reaches this one's streams (LISTEN/NOTIFY).
describe.runIf(process.env.DATABASE_URL)("across processes (PostgreSQL)", () => {
  const elsewhere = startRoda()
  afterAll(() => elsewhere.dispose())

  it("a notification written by another Roda on the database arrives on this one's stream", async () => {
    const stream = await open(setup.bruno, setup.community)
    try {
      await eventually(async () => (await subscribers()) > 0)
      const written = performance.now()
      await postStatus(client(elsewhere), setup, setup.alice, `De longe, ${mention(setup.bruno)}`)
      const event = await stream.next((e) => e.event === "notification")
      console.info(`notification stream across processes: ${(event.at - written).toFixed(0)} ms (request included)`)
      expect(event.data.subject.title).toBe("De longe, @Nome")
      expect(event.at - written).toBeLessThan(5000)
    } finally {
      await stream.close()
    }
  })

  it("listens again when its LISTEN connection is lost, and its streams read what was missed meanwhile", async () => {
    const stream = await open(setup.bruno, setup.community)
    const listeners = () =>
      roda.runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql<{ pid: number }>`SELECT pid FROM pg_stat_activity
          WHERE application_name = 'roda-listen' AND datname = current_database()`)
      )
    try {
      await eventually(async () => (await subscribers()) > 0)
      const before = (await listeners()).map((row) => row.pid)
      expect(before.length).toBeGreaterThan(0)
      // Every process's LISTEN connection is cut (as a restart of the database or a proxy would).
      await roda.runtime.runPromise(
        Effect.flatMap(SqlClient.SqlClient, (sql) =>
          sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'roda-listen' AND datname = current_database()`)
      )
      await eventually(async () => (await listeners()).every((row) => !before.includes(row.pid)))
      // Written while nobody listens (the process waits a second before listening again): its
      // pg_notify reaches no one; the streams read once listening again.
      await postStatus(client(elsewhere), setup, setup.alice, `Sem ouvir, ${mention(setup.bruno)}`)
      const event = await stream.next((e) => e.event === "notification" && e.data.subject.title.startsWith("Sem ouvir"))
      expect(event.data.kind).toBe("mention")
      const after = (await listeners()).map((row) => row.pid)
      expect(after.length).toBeGreaterThan(0)
      expect(after.filter((pid) => before.includes(pid))).toEqual([])
    } finally {
      await stream.close()
    }
  })
})

describe("the OpenAPI document", () => {
  it("describes the stream: what a client does and how to resume", async () => {
    const document = (await api.get("/api/openapi.json")).body
    const operation = document.paths["/api/notifications/stream"].get
    expect(operation.description).toContain("Last-Event-ID")
    expect(Object.keys(operation.responses["200"].content)).toEqual(["text/event-stream"])
  })
})
