import { afterAll, describe, expect, it } from "vitest"
import { buyer, cardCheckout, shop } from "./commerce/checkout-support"
import { as, NOT_MEMBER } from "./support/community"
import { expectError, expectOk } from "./support/envelope"
import { client, register, startRoda } from "./support/harness"
import { outboxFor } from "./support/outbox"

/**
 * Issue 10, item 1: an anonymous checkout naming an existing account's e-mail must not make that
 * account a member silently; what was bought waits on an invitation the holder accepts.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

describe("anonymous checkout with an existing account's e-mail", () => {
  it("invites the account instead of making it a member; the purchase applies once accepted", async () => {
    const made = await shop(api)
    const known = await register(api, "Conta Existente")
    const sale = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { buyer: buyer(known.email) }), {
        community: made.community.id
      }),
      201
    )
    // not a member: the community is closed to the account, and it is in no member list
    expectError(await api.get("/api/purchases/me", as(known, made.community)), 403, NOT_MEMBER)
    expect(expectOk(await api.get("/api/communities/my", { token: known.token }))).toEqual([])
    const members = expectOk(await api.get("/api/profiles/list", made.scoped))
    expect(members.map((p: { id: string }) => p.id)).not.toContain(sale.profileId)

    // the holder is told, sees the invitation, and accepts it
    expect((await outboxFor(roda, known.email)).map((m) => m.kind)).toContain("invitation")
    const mine = expectOk(await api.get("/api/profiles/my", { token: known.token }))
    expect(mine).toEqual([expect.objectContaining({ id: sale.profileId, status: "invited" })])
    expectOk(await api.post(`/api/profiles/${sale.profileId}/accept`, undefined, as(known, made.community)))
    expect(expectOk(await api.get("/api/purchases/me", as(known, made.community)))).toHaveLength(1)

    // a second anonymous purchase by that e-mail reuses the profile
    const again = expectOk(
      await api.post("/api/checkout", cardCheckout(made.product.id, { buyer: buyer(known.email) }), {
        community: made.community.id
      }),
      201
    )
    expect(again.profileId).toBe(sale.profileId)
  })
})
