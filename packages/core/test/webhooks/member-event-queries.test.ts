import { afterAll, expect, it } from "vitest"
import { expectOk } from "../support/envelope"
import { client, makeCommunity, register, startRoda } from "../support/harness"
import { statements } from "../support/queries"

/**
 * Issue 54, item 4: a `member.*` event adds one statement, its insert: the profile it sends is the
 * one the change's own statement answered (the insert, the acceptance) or the one the route reads
 * for its answer anyway (a role change).
 */
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

it("joining, accepting, a role change and leaving each emit in one statement", async () => {
  const { community, owner } = await makeCommunity(api, "Membros contados")
  const as = { token: owner.token, community: community.id }

  // A new address: an account and an active member at once (member.joined).
  const created = await statements(() => api.post("/api/profiles/create", { email: "novo@roda.test" }, as))
  const profileId = expectOk(created.result, 201).id
  expect(created.emits).toBe(1)
  // The caller, the inviter's checks, the account and the profile written (answered with its
  // contact, no read after), the set-password link and its e-mail, the event, and the feed spaces
  // followed (notifications).
  expect(created.n).toBe(11)

  // An existing account is invited; it accepts (member.joined).
  const ana = await register(api, "Ana Aceita")
  const invited = expectOk(await api.post("/api/profiles/create", { email: ana.email }, as), 201)
  const accepted = await statements(() =>
    api.post(`/api/profiles/${invited.id}/accept`, undefined, { token: ana.token, community: community.id })
  )
  expect(expectOk(accepted.result)).toMatchObject({ id: invited.id, status: "active" })
  expect(accepted.emits).toBe(1)
  // The caller, the acceptance (answering the profile), the event (no read for either), the feed
  // spaces followed.
  expect(accepted.n).toBe(4)

  const changed = await statements(() => api.put(`/api/profiles/${profileId}/role`, { role: "moderator" }, as))
  expect(expectOk(changed.result)).toMatchObject({ id: profileId, role: "moderator" })
  expect(changed.emits).toBe(1)
  // The caller, the target, the update, the profile read once (the event's and the answer's), the event.
  expect(changed.n).toBe(5)

  const left = await statements(() => api.del(`/api/profiles/${profileId}`, as))
  expectOk(left.result)
  expect(left.emits).toBe(1)
})
