import { afterAll, describe, expect, it } from "vitest"
import { Messages } from "../src/domain/Messages"
import { callCommunity } from "./call4papers/calls-support"
import { c4pSetup, submitted } from "./call4papers/submissions-support"
import { recordSale } from "./money/ledger-support"
import { uniqueAddress } from "./support/auth"
import { as, newCommunity, type TestCommunity } from "./support/community"
import { expectCreated, expectError, expectOk } from "./support/envelope"
import {
  type Client,
  client,
  confirmEmail,
  PASSWORD,
  registerUnverified,
  startRoda,
  type TestUser,
  uniqueEmail
} from "./support/harness"
import { confirmLinkFor, outboxFor } from "./support/outbox"
import { sellingCommunity } from "./support/selling"

/** Issue 52, item 4: sign-up sends a confirmation link; some acts need the e-mail confirmed. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const NOT_VERIFIED = Messages.emailNotVerified.pt

const me = async (token: string) => expectOk(await api.get("/api/auth/me", { token }))

/** An account that never used its sign-up link, made a member of `setup` with `role` (it accepts the invitation). */
const unverifiedMember = async (client: Client, setup: TestCommunity, role: string): Promise<TestUser> => {
  const user = await registerUnverified(client, `${role} sem confirmar`)
  const invited = expectCreated(
    await client.post("/api/profiles/create", { email: user.email, role }, as(setup.owner, setup.community))
  )
  expectOk(await client.post(`/api/profiles/${invited.id}/accept`, undefined, as(user, setup.community)))
  return user
}

describe("POST /api/auth/register sends a confirmation link", () => {
  it("e-mails one link; sign-in works before it is used; using it verifies the address once", async () => {
    const email = uniqueEmail("nova")
    const user = await registerUnverified(api, "Nina Nova", email)
    const mails = await outboxFor(roda, email)
    expect(mails.map((mail) => mail.kind)).toEqual(["verify-email"])
    expect(mails[0]!.communityId).toBeNull()
    const link = await confirmLinkFor(roda, email)
    expect(link.id).toBe(user.id)
    expect(link.mail.body).toContain("http://roda.test/confirm-email?")

    // the spec's login flow: sign-in and the token work before the confirmation
    const login = expectOk(
      await api.post("/api/auth/login", { email, password: PASSWORD }, { clientAddress: uniqueAddress() })
    )
    expect(await me(login.token)).toMatchObject({ email, emailVerified: false })

    expectOk(await api.post("/api/auth/confirm-email", { id: link.id, token: link.token }), 200)
    expect(await me(user.token)).toMatchObject({ emailVerified: true })
    expectError(await api.post("/api/auth/confirm-email", { id: link.id, token: link.token }), 410)
    // nothing more to confirm: a new request sends nothing
    expectOk(await api.post("/api/auth/verify-email", undefined, { token: user.token }))
    expect(await outboxFor(roda, email)).toHaveLength(1)
  })

  it("writes no link and no e-mail for a refused sign-up, even when many arrive at once", async () => {
    const email = uniqueEmail("corrida")
    const replies = await Promise.all(
      Array.from(
        { length: 6 },
        () =>
          api.post("/api/auth/register", { fullName: "Corrida", email, password: PASSWORD }, {
            clientAddress: uniqueAddress()
          })
      )
    )
    expect(replies.map((reply) => reply.status).sort()).toEqual([201, 409, 409, 409, 409, 409])
    expect((await outboxFor(roda, email)).map((mail) => mail.kind)).toEqual(["verify-email"])
    expectError(
      await api.post("/api/auth/register", { fullName: "De novo", email: email.toUpperCase(), password: PASSWORD }),
      409,
      Messages.emailTaken.pt
    )
    expect(await outboxFor(roda, email)).toHaveLength(1)
  })
})

describe("acts that need a verified e-mail answer 403 until the link is used", () => {
  it("inviting and adding members: an unverified owner, then the same owner once verified", async () => {
    const owner = await registerUnverified(api, "Dona Nova")
    const made = await api.post("/api/communities", { name: `Sem confirmar ${owner.id}` }, { token: owner.token })
    const community = expectCreated(made) as { id: string }
    const scoped = as(owner, community)
    const invitee = uniqueEmail("convidada")
    for (const path of ["/api/profiles/invite", "/api/profiles/create"]) {
      expectError(await api.post(path, { email: invitee }, scoped), 403, NOT_VERIFIED)
    }
    // nothing was written and nobody was e-mailed
    expect(await outboxFor(roda, invitee)).toHaveLength(0)
    expect((await api.post("/api/auth/login", { email: invitee, password: PASSWORD })).status).toBe(401)

    await confirmEmail(api, owner.email)
    expect(expectCreated(await api.post("/api/profiles/invite", { email: invitee }, scoped))).toMatchObject({
      email: invitee,
      status: "active"
    })
    expectCreated(await api.post("/api/profiles/create", { email: uniqueEmail("criada") }, scoped))
  })

  it("the role is checked first: an unverified member without the role hears about the role", async () => {
    const setup = await newCommunity(api, "Papel primeiro")
    const member = await unverifiedMember(api, setup, "member")
    const reply = await api.post("/api/profiles/invite", { email: uniqueEmail() }, as(member, setup.community))
    expect(reply.status).toBe(403)
    expect(reply.body.message).not.toBe(NOT_VERIFIED)
  })

  it("opening a call for papers", async () => {
    const setup = await callCommunity(api, "Chamada sem confirmar")
    const admin = await unverifiedMember(api, setup, "admin")
    const body = { spaceId: setup.space.id, title: "Chamada de palestras" }
    expectError(await api.post("/api/call4papers", body, as(admin, setup.community)), 403, NOT_VERIFIED)
    await confirmEmail(api, admin.email)
    expectCreated(await api.post("/api/call4papers", body, as(admin, setup.community)))
  })

  it("inviting a call's owners, its tracks' reviewers and speakers (e-mails to others)", async () => {
    const setup = await c4pSetup(api, "Convites sem confirmar")
    await submitted(api, setup)
    const admin = await unverifiedMember(api, setup, "admin")
    const scoped = as(admin, setup.community)
    const invitee = await setup.addMember("member", "Ivo Convidado")
    const invitations = [
      () => api.post(`/api/call4papers/${setup.call.id}/owners`, { profileId: invitee.profileId }, scoped),
      () => api.post(`/api/call4papers/tracks/${setup.trackB.id}/reviewers`, { profileId: invitee.profileId }, scoped),
      () =>
        api.post(
          `/api/call4papers/${setup.call.id}/invite-speaker`,
          { profileId: setup.people.proposer.profileId, message: "Venha!" },
          scoped
        )
    ]
    for (const invite of invitations) expectError(await invite(), 403, NOT_VERIFIED)
    // nobody was e-mailed
    const kinds = async (email: string) => (await outboxFor(roda, email)).map((mail) => mail.kind)
    expect(await kinds(invitee.email)).not.toContain("call4papers-owner-invitation")
    expect(await kinds(invitee.email)).not.toContain("call4papers-reviewer-invitation")
    expect(await kinds(setup.people.proposer.email)).not.toContain("speaker-invitation")

    await confirmEmail(api, admin.email)
    for (const invite of invitations) expectCreated(await invite())
  })

  it("requesting a payout", async () => {
    const shop = await sellingCommunity(api, "Saque sem confirmar")
    await recordSale(roda, shop.community.id, { method: "PIX", amount: 10000 })
    const finance = await unverifiedMember(api, shop, "finance")
    const admin = await unverifiedMember(api, shop, "admin")
    expectError(await api.post("/api/payouts", { amount: 1000 }, as(admin, shop.community)), 403, NOT_VERIFIED)
    // not a manager of payouts: the role answers, whatever the e-mail
    const byFinance = await api.post("/api/payouts", { amount: 1000 }, as(finance, shop.community))
    expect(byFinance.status).toBe(403)
    expect(byFinance.body.message).not.toBe(NOT_VERIFIED)
    // the refused request booked nothing
    expect(expectOk(await api.get("/api/payouts", as(admin, shop.community)))).toEqual([])

    await confirmEmail(api, admin.email)
    expect(expectCreated(await api.post("/api/payouts", { amount: 1000 }, as(admin, shop.community))))
      .toMatchObject({ amount: 1000, status: "pending" })
  })

  it("answers in English on request", async () => {
    const owner = await registerUnverified(api, "Owner")
    const community = expectCreated(
      await api.post("/api/communities", { name: `English ${owner.id}` }, { token: owner.token })
    ) as { id: string }
    const reply = await api.post("/api/profiles/invite", { email: uniqueEmail() }, {
      ...as(owner, community),
      headers: { "accept-language": "en" }
    })
    expectError(reply, 403, Messages.emailNotVerified.en)
  })
})

describe("becoming a platform operator needs the verified e-mail", () => {
  it("a listed address is an operator only after its sign-up link is used", async () => {
    const listed = uniqueEmail("operadora")
    const operated = startRoda({ platformAdminEmails: [listed] })
    try {
      const other = client(operated)
      const operator = await registerUnverified(other, "Operadora", listed)
      const before = expectOk(await other.get("/api/auth/me", { token: operator.token }))
      expect(before).toMatchObject({ emailVerified: false, isPlatformAdmin: false })
      expectError(await other.get("/api/admin/audit?limit=1", { token: operator.token }), 403)
      await confirmEmail(other, listed)
      const after = expectOk(await other.get("/api/auth/me", { token: operator.token }))
      expect(after).toMatchObject({ emailVerified: true, isPlatformAdmin: true })
      expectOk(await other.get("/api/admin/audit?limit=1", { token: operator.token }))
    } finally {
      await operated.dispose()
    }
  })
})
