import { afterAll, describe, expect, it } from "vitest"
import { cardCheckout, shop } from "../commerce/checkout-support"
import { expectError, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { query } from "../support/sql"

/**
 * Issue 56: an account banned by moderation cannot buy its way back into the community (a purchase
 * makes the buyer a member): 403 to the signed-in holder, 409 when an anonymous buyer names its
 * e-mail; no charge is made. Once unbanned, the purchase goes through.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const BANNED_SELF = "Você foi banido desta comunidade e não pode entrar nela."
const MEMBER_BANNED = "Esta pessoa foi banida da comunidade: desfaça o banimento antes de adicioná-la ou convidá-la."

describe("a banned account at the checkout", () => {
  it("is refused signed in (403) and as an anonymous buyer's e-mail (409), without a charge, until unbanned", async () => {
    const made = await shop(api)
    const rui = await made.addMember("member", "Rui Ramos")
    expectOk(await api.post(`/api/moderation/members/${rui.profileId}/ban`, { reason: "Spam" }, made.scoped))
    const charges = () =>
      query<{ n: number }>(
        roda,
        (sql) => sql`SELECT count(*)::int AS n FROM charges WHERE community_id = ${made.community.id}`
      )

    const signedIn = cardCheckout(made.product.id, { buyer: undefined })
    expectError(
      await api.post("/api/checkout", signedIn, { token: rui.token, community: made.community.id }),
      403,
      BANNED_SELF
    )
    const anonymous = cardCheckout(made.product.id, {
      buyer: { name: "Rui Ramos", email: rui.email, taxId: "529.982.247-25" }
    })
    expectError(await api.post("/api/checkout", anonymous, { community: made.community.id }), 409, MEMBER_BANNED)
    expect((await charges())[0]!.n).toBe(0)

    expectOk(await api.post(`/api/moderation/members/${rui.profileId}/unban`, undefined, made.scoped))
    const bought = await api.post("/api/checkout", signedIn, { token: rui.token, community: made.community.id })
    expect(bought.status, JSON.stringify(bought.body)).toBe(201)
    expect((await charges())[0]!.n).toBe(1)
  })
})
