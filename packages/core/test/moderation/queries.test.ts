import { afterAll, beforeAll, expect, it } from "vitest"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { statements } from "../support/queries"
import { type ModerationCommunity, moderationCommunity } from "./setup"

// Statements are counted through their spans, which only exist with tracing on.
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

let m: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Consultas da moderação")
  for (let i = 0; i < 4; i++) {
    const post = await m.status(m.alice, `Post ${i}`)
    for (const user of [m.bruno, m.carla]) expectOk(await m.report(user, "status", post.id, "spam"), 201)
    const caseId = (expectOk(await api.get("/api/moderation/cases?limit=1", m.in(m.moderator))) as Array<any>)[0].id
    if (i % 2 === 0) {
      expectOk(await api.post(`/api/moderation/cases/${caseId}/resolve`, { action: "dismiss" }, m.in(m.moderator)))
    }
  }
})

/** Rule 7: a list is a fixed number of statements, whatever its length. */
it("lists cases and the log in a fixed number of statements, whatever the page size", async () => {
  const count = async (path: string) => {
    const { n, result } = await statements(() => api.get(path, m.in(m.moderator)))
    return { n, items: (expectOk(result) as Array<unknown>).length }
  }
  const small = await count("/api/moderation/cases?limit=1")
  const large = await count("/api/moderation/cases?limit=100")
  expect([small.items, large.items]).toEqual([1, 2])
  expect(large.n).toBe(small.n)
  const resolved = await count("/api/moderation/cases?status=resolved&limit=100")
  expect([resolved.items, resolved.n]).toEqual([2, small.n])
  const log = [await count("/api/moderation/log?limit=1"), await count("/api/moderation/log?limit=100")]
  expect(log.map((x) => x.items)).toEqual([1, 2])
  expect(log[1]!.n).toBe(log[0]!.n)
})
