import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { WebhookEvents } from "../../src/webhooks/WebhookEvents"
import { client, makeCommunity, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { startReceiver } from "./receiver"

/** Issue 54, item 2: webhooks out (platform.md "Webhooks out"), to a real receiver on 127.0.0.1. */
const roda = startRoda({ webhooksAllowPrivate: true })
const api = client(roda)
let receiver: Awaited<ReturnType<typeof startReceiver>>
let failing = true
type Community = Awaited<ReturnType<typeof makeCommunity>>
let home: Community
let other: Community
const asOwner = () => ({ token: home.owner.token, community: home.community.id })

beforeAll(async () => {
  receiver = await startReceiver((path) => path === "/hang" ? "hang" : path === "/flaky" && failing ? 500 : 200)
  home = await makeCommunity(api, "Ganchos")
  other = await makeCommunity(api, "Outros ganchos")
})
afterAll(async () => {
  await roda.dispose()
  await receiver.close()
})

const createHook = async (path: string, events: ReadonlyArray<string> = ["*"], as = asOwner()) => {
  const reply = await api.post("/api/webhooks", { url: receiver.url(path), events }, as)
  expect(reply.status, JSON.stringify(reply.body)).toBe(201)
  return reply.body.data as { id: string; secret: string; url: string }
}

const sql = <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown>) =>
  roda.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, f) as Effect.Effect<A>)

describe("managing webhooks", () => {
  it("creates with a whsec_ secret, lists and shows without it, changes, deletes; owners and admins only", async () => {
    const hook = await createHook("/managed", ["post.created", "member.joined"])
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const listed = await api.get("/api/webhooks", asOwner())
    expect(listed.body.data.find((h: { id: string }) => h.id === hook.id)).toMatchObject({
      url: receiver.url("/managed"),
      events: ["post.created", "member.joined"],
      enabled: true
    })
    expect(JSON.stringify(listed.body)).not.toContain(hook.secret)
    const changed = await api.put(`/api/webhooks/${hook.id}`, { events: ["*"], description: "CRM" }, asOwner())
    expect(changed.body.data).toMatchObject({ events: ["*"], description: "CRM" })

    const member = await home.addMember("member")
    const refused = await api.get("/api/webhooks", { token: member.token, community: home.community.id })
    expect(refused.status).toBe(403)
    expect(refused.body.code).toBe("role_required")
    const foreign = await api.get(`/api/webhooks/${hook.id}`, {
      token: other.owner.token,
      community: other.community.id
    })
    expect(foreign.status).toBe(404)
    expect(foreign.body.message).toBe("Webhook não encontrado.")

    expect((await api.del(`/api/webhooks/${hook.id}`, asOwner())).status).toBe(200)
    expect((await api.get(`/api/webhooks/${hook.id}`, asOwner())).status).toBe(404)
  })

  it("refuses bad input with the field, and http or private destinations unless the server allows them", async () => {
    for (
      const [body, param] of [
        [{ url: "ftp://x.example/hook", events: ["*"] }, "url"],
        [{ url: "https://x.example/hook", events: [] }, "events"],
        [{ url: "https://x.example/hook", events: ["post.deleted"] }, "events"],
        [{ url: "https://x.example/hook", events: ["*"], secret: "mine" }, "secret"]
      ] as const
    ) {
      const reply = await api.post("/api/webhooks", body, asOwner())
      expect(reply.status, JSON.stringify(body)).toBe(400)
      expect(reply.body.errors.map((e: { param: string }) => e.param.split(".")[0])).toContain(param)
    }
    const strict = startRoda()
    try {
      const on = client(strict)
      const community = await makeCommunity(on, "Estrita")
      const as = { token: community.owner.token, community: community.community.id }
      for (
        const url of ["http://hooks.example.com/x", "https://127.0.0.1/x", "https://10.1.2.3/x", "https://localhost/x"]
      ) {
        const reply = await on.post("/api/webhooks", { url, events: ["*"] }, as)
        expect(reply.status, url).toBe(400)
        expect(reply.body.code, url).toBe("url_not_allowed")
      }
      expect((await on.post("/api/webhooks", { url: "https://hooks.example.com/x", events: ["*"] }, as)).status).toBe(
        201
      )
    } finally {
      await strict.dispose()
    }
  })

  it("is managed by an API key with webhooks:manage, and refused to one without", async () => {
    const made = async (scopes: ReadonlyArray<string>) =>
      (await api.post("/api/api-keys", { name: "hooks", scopes }, asOwner())).body.data.key as string
    const manager = await made(["webhooks:manage"])
    const reply = await api.post("/api/webhooks", { url: receiver.url("/by-key"), events: ["*"] }, {
      token: manager,
      community: home.community.id
    })
    expect(reply.status).toBe(201)
    const reader = await made(["community:read"])
    const refused = await api.get("/api/webhooks", { token: reader, community: home.community.id })
    expect(refused.status).toBe(403)
    expect(refused.body.message).toContain("webhooks:manage")
  })
})

describe("deliveries", () => {
  it("sends webhook.test signed as Standard Webhooks say, verified by the standardwebhooks package", async () => {
    const hook = await createHook("/signed")
    const sent = await api.post(`/api/webhooks/${hook.id}/test`, undefined, asOwner())
    expect(sent.status).toBe(200)
    const [request] = await receiver.waitFor("/signed")
    const verified = new Webhook(hook.secret).verify(request!.body, request!.headers as Record<string, string>) as any
    expect(verified).toMatchObject({
      type: "webhook.test",
      data: { communityId: home.community.id, webhookId: hook.id }
    })
    expect(request!.headers["webhook-id"]).toBe(sent.body.data.eventId)
    expect(request!.headers["content-type"]).toBe("application/json")
    expect(() =>
      new Webhook(`whsec_${Buffer.from("x".repeat(32)).toString("base64")}`).verify(
        request!.body,
        request!.headers as Record<string, string>
      )
    ).toThrow()

    let deliveries: any
    for (let i = 0; i < 50; i++) {
      deliveries = (await api.get(`/api/webhooks/${hook.id}/deliveries`, asOwner())).body
      if (deliveries.data[0]?.status === "succeeded") break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(deliveries.data[0]).toMatchObject({
      eventId: sent.body.data.eventId,
      eventType: "webhook.test",
      status: "succeeded",
      attempts: 1,
      lastStatusCode: 200,
      nextAttemptAt: null
    })
    const events = await api.get("/api/webhook-events?type=webhook.test", asOwner())
    expect(events.body.data.map((e: { id: string }) => e.id)).toContain(sent.body.data.eventId)
  })

  it("keeps a failed attempt pending about 5 s later; a manual retry sends it again with the same id", async () => {
    failing = true
    const hook = await createHook("/flaky")
    const sent = await api.post(`/api/webhooks/${hook.id}/test`, undefined, asOwner())
    const [first] = await receiver.waitFor("/flaky")
    let delivery: any
    for (let i = 0; i < 50; i++) {
      delivery = (await api.get(`/api/webhooks/${hook.id}/deliveries`, asOwner())).body.data[0]
      if (delivery.lastStatusCode === 500) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(delivery).toMatchObject({ status: "pending", attempts: 1, lastStatusCode: 500, lastError: "HTTP 500" })
    const wait = new Date(delivery.nextAttemptAt).getTime() - Date.now()
    expect(wait).toBeGreaterThan(1_000)
    expect(wait).toBeLessThan(6_000)
    failing = false
    const retried = await api.post(`/api/webhooks/deliveries/${delivery.id}/retry`, undefined, asOwner())
    expect(retried.status).toBe(200)
    const [, second] = await receiver.waitFor("/flaky", 2)
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"])
    expect(second!.headers["webhook-id"]).toBe(sent.body.data.eventId)
    const foreign = await api.post(`/api/webhooks/deliveries/${delivery.id}/retry`, undefined, {
      token: other.owner.token,
      community: other.community.id
    })
    expect(foreign.status).toBe(404)
  })

  it("signs with both secrets for a day after a rotation", async () => {
    const hook = await createHook("/rotated")
    const rotated = await api.post(`/api/webhooks/${hook.id}/rotate-secret`, undefined, asOwner())
    expect(rotated.status).toBe(200)
    expect(rotated.body.data.secret).not.toBe(hook.secret)
    await api.post(`/api/webhooks/${hook.id}/test`, undefined, asOwner())
    const [request] = await receiver.waitFor("/rotated")
    const headers = request!.headers as Record<string, string>
    expect(headers["webhook-signature"]!.split(" ")).toHaveLength(2)
    expect(() => new Webhook(hook.secret).verify(request!.body, headers)).not.toThrow()
    expect(() => new Webhook(rotated.body.data.secret).verify(request!.body, headers)).not.toThrow()
  })

  it("emits nothing from a change that rolls back; a committed one is delivered", async () => {
    const hook = await createHook("/outbox", ["post.created"])
    const emit = (marker: string) =>
      Effect.flatMap(WebhookEvents, (events) => events.emit(home.community.id, "post.created", { id: marker }))
    await roda.runtime.runPromise(
      Effect.flatMap(
        SqlClient.SqlClient,
        (db) => db.withTransaction(Effect.zipRight(emit("rolled-back"), Effect.fail("no")))
      )
        .pipe(Effect.ignore)
    )
    await roda.runtime.runPromise(
      Effect.flatMap(SqlClient.SqlClient, (db) => db.withTransaction(emit("committed"))).pipe(Effect.orDie)
    )
    const [request] = await receiver.waitFor("/outbox")
    expect(JSON.parse(request!.body).data).toEqual({ id: "committed", communityId: home.community.id })
    const stored = await sql((db) =>
      db<{ n: number }>`SELECT count(*)::int AS n FROM webhook_events WHERE data->>'id' = 'rolled-back'`
    )
    expect(stored[0]!.n).toBe(0)
    expect(hook.id).toBeDefined()
  })

  it("does not let an endpoint that never answers delay another's deliveries", async () => {
    const slow = await createHook("/hang", ["post.created"])
    const quick = await createHook("/quick", ["comment.created"])
    for (let i = 0; i < 20; i++) {
      await roda.runtime.runPromise(
        Effect.flatMap(WebhookEvents, (events) => events.emit(home.community.id, "post.created", { i }))
      )
    }
    await receiver.waitFor("/hang", 4)
    const started = Date.now()
    await roda.runtime.runPromise(
      Effect.flatMap(WebhookEvents, (events) => events.emit(home.community.id, "comment.created", { id: "c" }))
    )
    await receiver.waitFor("/quick", 1, 5_000)
    expect(Date.now() - started).toBeLessThan(5_000)
    // at most 4 at once go to the endpoint that hangs
    expect(receiver.received.filter((r) => r.path === "/hang").length).toBeLessThanOrEqual(4)
    await api.del(`/api/webhooks/${slow.id}`, asOwner())
    expect(quick.id).toBeDefined()
  })

  it("disables an endpoint after 50 failures in a row and e-mails the community's owners", async () => {
    failing = true
    const hook = await createHook("/flaky", ["webhook.test"])
    await sql((db) => db`UPDATE webhook_endpoints SET consecutive_failures = 49 WHERE id = ${hook.id}`)
    const before = receiver.received.filter((r) => r.path === "/flaky").length
    await api.post(`/api/webhooks/${hook.id}/test`, undefined, asOwner())
    await receiver.waitFor("/flaky", before + 1)
    let endpoint: any
    for (let i = 0; i < 50; i++) {
      endpoint = (await api.get(`/api/webhooks/${hook.id}`, asOwner())).body.data
      if (!endpoint.enabled) break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(endpoint).toMatchObject({ enabled: false, disabledReason: "failing" })
    const mails = (await outboxFor(roda, home.owner.email)).filter((m) => m.kind === "webhook-disabled")
    expect(mails).toHaveLength(1)
    expect(mails[0]!.body).toContain(receiver.url("/flaky"))
    const test = await api.post(`/api/webhooks/${hook.id}/test`, undefined, asOwner())
    expect(test.status).toBe(409)
    const enabled = await api.put(`/api/webhooks/${hook.id}`, { enabled: true }, asOwner())
    expect(enabled.body.data).toMatchObject({ enabled: true, disabledReason: null })
    failing = false
  })
})
