import { afterAll, beforeAll, expect, it } from "vitest"
import { type SocialCommunity, socialCommunity } from "../social/setup"
import { as } from "../support/community"
import { client, startRoda } from "../support/harness"
import { statements } from "../support/queries"
import { mention, postStatus, type Who } from "./setup"

/**
 * Issue 55, item 3: streams woken together share their reads. One post mentioning 20 members wakes
 * their 20 streams at once; their reads are gathered into one statement (`InboxReads`), not 20, and
 * each stream still gets exactly its own notification.
 */
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

let setup: SocialCommunity
let members: Array<Who & { email: string }>
beforeAll(async () => {
  setup = await socialCommunity(api, "Rajada")
  members = []
  for (let i = 0; i < 20; i++) members.push(await setup.addMember("member", `Leitor ${i}`))
}, 120_000)

/** A stream read straight from the web handler's answer: the events' ids as they arrive. */
const open = async (user: Who) => {
  const abort = new AbortController()
  const headers = { ...as(user, setup.community) }
  const response = await roda.handler(
    new Request("http://roda.test/api/notifications/stream", {
      headers: { authorization: `Bearer ${headers.token}`, "x-communityid": setup.community.id },
      signal: abort.signal
    })
  )
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  const events: Array<{ id: string; data: any }> = []
  let text = ""
  const reading = (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }))
      if (done) return
      text += decoder.decode(value, { stream: true })
      let end: number
      while ((end = text.indexOf("\n\n")) >= 0) {
        const block = text.slice(0, end)
        text = text.slice(end + 2)
        const id = /^id: (.*)$/m.exec(block)?.[1]
        const data = /^data: (.*)$/m.exec(block)?.[1]
        if (id !== undefined && data !== undefined) events.push({ id, data: JSON.parse(data) })
      }
    }
  })()
  return {
    events,
    close: async () => {
      abort.abort()
      await reader.cancel().catch(() => undefined)
      await reading
    }
  }
}

it("gathers the reads of streams woken together into one statement; each gets its own notification", async () => {
  const streams = await Promise.all(members.map(open))
  try {
    // Each stream reads once as it opens; let those settle.
    await new Promise((resolve) => setTimeout(resolve, 300))
    const { inSpans } = await statements(async () => {
      await postStatus(api, setup, setup.alice, members.map((m) => mention(m)).join(" "))
      const until = Date.now() + 10_000
      while (streams.some((s) => s.events.length === 0) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }, { spans: ["NotificationStream.read"] })
    for (const [i, stream] of streams.entries()) {
      expect(stream.events).toHaveLength(1)
      expect(stream.events[0]!.data).toMatchObject({ kind: "mention", actor: { profileId: setup.alice.profileId } })
      expect(stream.events[0]!.data.id).not.toBe(streams[(i + 1) % streams.length]!.events[0]!.data.id)
    }
    // One gathered read (two if the wake-ups straddle the gathering window), not 20.
    expect(inSpans).toBeGreaterThanOrEqual(1)
    expect(inSpans).toBeLessThanOrEqual(2)
  } finally {
    await Promise.all(streams.map((s) => s.close()))
  }
})

it("answers its status and headers at once, with an opening comment (not with the first event or heartbeat)", async () => {
  const response = await roda.handler(
    new Request("http://roda.test/api/notifications/stream", {
      headers: { authorization: `Bearer ${members[0]!.token}`, "x-communityid": setup.community.id }
    })
  )
  expect(response.status).toBe(200)
  const reader = response.body!.getReader()
  const first = await Promise.race([
    reader.read(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("nothing within 2 s")), 2_000))
  ])
  expect(new TextDecoder().decode(first.value)).toBe(": open\n\n")
  await reader.cancel()
})
