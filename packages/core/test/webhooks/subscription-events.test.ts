import { afterAll, beforeAll, expect, it, vi } from "vitest"
import { controlledClock, DAY, runJobs, setCard, signIn, subscribed } from "../commerce/subscriptions-support"
import { expectError, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { expectDeclared, type Received, startReceiver, verifiedEvents } from "./receiver"

/**
 * Issue 54, item 3: a subscription's moves reach the community's webhooks, each with the
 * subscription as the team's detail route answers it. Renewals need a month to pass: the clock is
 * the test's (jobs and deliveries run by themselves on it, and `runJobs` hurries them), and the
 * receiver checks the signatures' timestamps on that same clock.
 */
const time = controlledClock(Date.UTC(2026, 0, 31, 12, 0, 0))
const roda = startRoda({ webhooksAllowPrivate: true }, { clock: time.clock })
const api = client(roda)
let receiver: Awaited<ReturnType<typeof startReceiver>>
beforeAll(async () => {
  receiver = await startReceiver()
})
afterAll(async () => {
  await roda.dispose()
  await receiver?.close()
})

const TYPES = [
  "subscription.created",
  "subscription.renewed",
  "subscription.past_due",
  "subscription.canceled",
  "subscription.paused",
  "subscription.resumed",
  "subscription.plan_changed"
]

/**
 * A plan, a member and a webhook for the subscription events at `path`. The purchase `subscribed`
 * makes is ended by the team before the webhook exists: every event after is of the test's moves.
 */
const withWebhook = async (path: string) => {
  const made = await subscribed(api)
  expectOk(await api.post(`/api/manage/subscriptions/${made.subscriptionId}/cancel`, { when: "now" }, made.scoped))
  const hook = expectOk(await api.post("/api/webhooks", { url: receiver.url(path), events: TYPES }, made.scoped), 201)
  const delivered: Array<any> = []
  const arrived = () => receiver.received.filter((r) => r.path === path)
  const verified = (requests: ReadonlyArray<Received>) => {
    const clock = vi.spyOn(Date, "now").mockImplementation(() => time.now())
    try {
      return verifiedEvents(hook.secret, requests)
    } finally {
      clock.mockRestore()
    }
  }
  return {
    made,
    delivered,
    /** The `count` events sent since the last call (signatures verified), by type. */
    next: async (count: number) => {
      const requests = await receiver.waitFor(path, delivered.length + count)
      const fresh = verified(requests.slice(delivered.length))
      delivered.push(...fresh)
      return Object.fromEntries(fresh.map((event) => [event.type, event.data]))
    },
    /** The subscription as the team's detail route answers it now. */
    staffView: async (id: string) =>
      expectOk(
        await api.get(`/api/manage/subscriptions/${id}`, {
          token: await signIn(api, made.owner.email),
          community: made.community.id
        })
      ),
    member: async () => ({ token: await signIn(api, made.member.email), community: made.community.id }),
    /** Nothing else was sent (a repeated move, a job run again), and each key sent is documented. */
    nothingMore: async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500))
      expect(arrived()).toHaveLength(delivered.length)
      await expectDeclared(api, delivered)
    }
  }
}

/** Moves the clock just past `end` and runs what fell due. */
const after = async (end: string) => {
  time.set(new Date(end).getTime() + 1000)
  await runJobs(roda)
}

it("sends created, renewed, past_due, renewed on pay-now, canceled at the period end", async () => {
  const hook = await withWebhook("/billing")
  const { made } = hook
  const community = { communityId: made.community.id }
  const id = await made.buy(made.monthly.id)
  const created = (await hook.next(1))["subscription.created"]
  expect(created).toEqual({ ...(await hook.staffView(id)), ...community })
  expect(created).toMatchObject({ id, status: "active", member: { profileId: made.member.profileId } })

  await after(created.currentPeriodEnd)
  const renewed = (await hook.next(1))["subscription.renewed"]
  expect(renewed).toEqual({ ...(await hook.staffView(id)), ...community })
  expect(renewed.currentPeriodStart).toBe(created.currentPeriodEnd)
  await runJobs(roda)

  // The card stops working: the renewal fails (past due); the retry of day 1 fails too, and stays so.
  await setCard(roda, id, "tok_chargeDeclined")
  await after(renewed.currentPeriodEnd)
  const pastDue = (await hook.next(1))["subscription.past_due"]
  expect(pastDue).toEqual({ ...(await hook.staffView(id)), ...community })
  expect(pastDue.status).toBe("past_due")
  time.advance(DAY + 1000)
  await runJobs(roda)

  const paid = await api.post(`/api/subscriptions/${id}/pay-now`, {
    paymentMethod: "CREDIT_CARD",
    cardToken: "tok_visa"
  }, await hook.member())
  expect(expectOk(paid).subscription.status).toBe("active")
  const recovered = (await hook.next(1))["subscription.renewed"]
  expect(recovered).toEqual({ ...(await hook.staffView(id)), ...community })
  expect(recovered.currentPeriodStart).toBe(renewed.currentPeriodEnd)

  // The member's cancel keeps it active until the period end: it is canceled then.
  const member = await hook.member()
  expect(expectOk(await api.post(`/api/subscriptions/${id}/cancel`, undefined, member)).cancelAtPeriodEnd).toBe(true)
  await after(recovered.currentPeriodEnd)
  const canceled = (await hook.next(1))["subscription.canceled"]
  expect(canceled).toEqual({ ...(await hook.staffView(id)), ...community })
  expect(canceled).toMatchObject({ status: "canceled", cancelAtPeriodEnd: false, canceledAt: expect.any(String) })
  expectError(await api.post(`/api/subscriptions/${id}/cancel`, undefined, await hook.member()), 409)
  await runJobs(roda)
  await hook.nothingMore()
})

it("sends paused, resumed, plan_changed (now and at the period end), canceled by the team, created for a courtesy", async () => {
  const hook = await withWebhook("/moves")
  const { made } = hook
  const community = { communityId: made.community.id }
  const id = await made.buy(made.monthly.id)
  const created = (await hook.next(1))["subscription.created"]
  const member = await hook.member()

  // Paused until a date, resumed by itself then; paused again, resumed by the member.
  const resumeAt = new Date(time.now() + 10 * DAY).toISOString()
  expectOk(await api.post(`/api/subscriptions/${id}/pause`, { resumeAt }, member))
  const paused = (await hook.next(1))["subscription.paused"]
  expect(paused).toEqual({ ...(await hook.staffView(id)), ...community })
  expect(paused).toMatchObject({ status: "paused", pausedUntil: resumeAt })
  expectError(await api.post(`/api/subscriptions/${id}/pause`, {}, member), 409)
  await after(resumeAt)
  const resumedByTime = (await hook.next(1))["subscription.resumed"]
  expect(resumedByTime).toEqual({ ...(await hook.staffView(id)), ...community })
  expect(resumedByTime).toMatchObject({ status: "active", pausedUntil: null })
  const again = await hook.member()
  expectOk(await api.post(`/api/subscriptions/${id}/pause`, {}, again))
  expect((await hook.next(1))["subscription.paused"]).toMatchObject({ id, status: "paused", pausedUntil: null })
  expectOk(await api.post(`/api/subscriptions/${id}/resume`, undefined, again))
  const resumed = (await hook.next(1))["subscription.resumed"]
  expect(resumed).toEqual({ ...(await hook.staffView(id)), ...community })
  expectError(await api.post(`/api/subscriptions/${id}/resume`, undefined, again), 409)

  // An upgrade now (charged prorated); asked again, nothing changes.
  const upgrade = { productId: made.premium.id, when: "now" }
  expectOk(await api.post(`/api/subscriptions/${id}/change-tier`, upgrade, again))
  const upgraded = (await hook.next(1))["subscription.plan_changed"]
  expect(upgraded).toEqual({ ...(await hook.staffView(id)), ...community, previousProductId: made.monthly.id })
  expect(upgraded.productId).toBe(made.premium.id)
  expectError(await api.post(`/api/subscriptions/${id}/change-tier`, upgrade, again), 400)

  // A downgrade scheduled changes nothing yet; at the period end the option changes and renews.
  const downgrade = { productId: made.monthly.id, when: "period_end" }
  expectOk(await api.post(`/api/subscriptions/${id}/change-tier`, downgrade, again))
  await after(upgraded.currentPeriodEnd)
  const atEnd = await hook.next(2)
  expect(atEnd["subscription.plan_changed"]).toMatchObject({
    id,
    productId: made.monthly.id,
    previousProductId: made.premium.id,
    scheduledChange: null,
    ...community
  })
  expect(atEnd["subscription.renewed"]).toEqual({ ...(await hook.staffView(id)), ...community })
  expect(atEnd["subscription.renewed"]).toMatchObject({ productId: made.monthly.id, price: 4990 })

  // The team cancels now; asked again, it is already over.
  const owner = { token: await signIn(api, made.owner.email), community: made.community.id }
  expectOk(await api.post(`/api/manage/subscriptions/${id}/cancel`, { when: "now" }, owner))
  const canceled = (await hook.next(1))["subscription.canceled"]
  expect(canceled).toEqual({ ...(await hook.staffView(id)), ...community })
  expect(canceled.status).toBe("canceled")
  expectError(await api.post(`/api/manage/subscriptions/${id}/cancel`, { when: "now" }, owner), 409)

  // A courtesy the team grants starts at once.
  const courtesy = expectOk(
    await api.post("/api/manage/subscriptions", {
      profileId: made.member.profileId,
      productId: made.premium.id,
      kind: "courtesy",
      periodEnd: new Date(time.now() + 5 * DAY).toISOString()
    }, owner),
    201
  )
  const granted = (await hook.next(1))["subscription.created"]
  expect(granted).toEqual({ ...(await hook.staffView(courtesy.id)), ...community })
  expect(granted).toMatchObject({ kind: "courtesy", status: "active" })
  expect(created.id).toBe(id)
  await hook.nothingMore()
})
