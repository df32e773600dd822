import { afterAll, describe, expect, it } from "vitest"
import { Messages } from "../../src/domain/Messages"
import { identityMessages } from "../../src/identity/messages"
import { callCommunity } from "../call4papers/calls-support"
import { recordSale } from "../money/ledger-support"
import { newCommunity, type TestCommunity } from "../support/community"
import { failsReply, okReply, statusOf, wireContract } from "../support/contractReplies"
import { UUID } from "../support/envelope"
import {
  client,
  confirmEmail,
  PASSWORD,
  registerUnverified,
  startRoda,
  type TestUser,
  uniqueEmail
} from "../support/harness"
import { confirmLinkFor, outboxFor } from "../support/outbox"
import { sellingCommunity } from "../support/selling"
import { meOf, signIn } from "./support"

/** Issue 52, item 4: sign-up sends a confirmation link; some acts need the e-mail confirmed. */
const roda = startRoda()
const api = client(roda)
const typed = wireContract(roda)
afterAll(() => roda.dispose())

const NOT_VERIFIED = Messages.emailNotVerified.pt

const me = async (token: string) => (await okReply(meOf(roda, token), 200)).data.data

/** An account that never used its sign-up link, made a member of `setup` with `role` (it accepts the invitation). */
const unverifiedMember = async (
  setup: TestCommunity,
  role: "admin" | "finance" | "member"
): Promise<TestUser> => {
  const user = await registerUnverified(api, `${role} sem confirmar`)
  const { data: invited } = await okReply(
    typed.as(setup.owner, setup.community).profiles.create({ payload: { email: user.email, role } }),
    201
  )
  expect(invited.data.id).toMatch(UUID)
  await okReply(typed.as(user, setup.community).profiles.accept({ path: { id: invited.data.id } }), 200)
  return user
}

/** A community made by `owner` (201): its id. */
const communityOf = async (owner: TestUser, name: string) => {
  const { data: made } = await okReply(typed.as(owner).communities.create({ payload: { name } }), 201)
  expect(made.data.id).toMatch(UUID)
  return { id: made.data.id }
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
    const { data: login } = await okReply(signIn(roda, email, PASSWORD), 200)
    expect(await me(login.data.token)).toMatchObject({ email, emailVerified: false })

    const anonymous = typed.anonymous().identity
    await okReply(anonymous.confirmEmail({ payload: { id: link.id, token: link.token } }), 200)
    expect(await me(user.token)).toMatchObject({ emailVerified: true })
    await failsReply(anonymous.confirmEmail({ payload: { id: link.id, token: link.token } }), 410)
    // nothing more to confirm: a new request sends nothing
    await okReply(typed.as(user).identity.verifyEmail(), 200)
    expect(await outboxFor(roda, email)).toHaveLength(1)
  })

  it("writes no link and no e-mail for a refused sign-up, even when many arrive at once", async () => {
    const email = uniqueEmail("corrida")
    const registerAs = (fullName: string, address: string) =>
      typed.anonymous().identity.register({ payload: { fullName, email: address, password: PASSWORD } })
    const statuses = await Promise.all(Array.from({ length: 6 }, () => statusOf(registerAs("Corrida", email))))
    expect(statuses.sort()).toEqual([201, 409, 409, 409, 409, 409])
    expect((await outboxFor(roda, email)).map((mail) => mail.kind)).toEqual(["verify-email"])
    await failsReply(registerAs("De novo", email.toUpperCase()), 409, identityMessages.emailTaken.pt)
    expect(await outboxFor(roda, email)).toHaveLength(1)
  })
})

describe("acts that need a verified e-mail answer 403 until the link is used", () => {
  it("inviting and adding members: an unverified owner, then the same owner once verified", async () => {
    const owner = await registerUnverified(api, "Dona Nova")
    const community = await communityOf(owner, `Sem confirmar ${owner.id}`)
    const profiles = typed.as(owner, community).profiles
    const invitee = uniqueEmail("convidada")
    await failsReply(profiles.invite({ payload: { email: invitee } }), 403, NOT_VERIFIED)
    await failsReply(profiles.create({ payload: { email: invitee } }), 403, NOT_VERIFIED)
    // nothing was written and nobody was e-mailed
    expect(await outboxFor(roda, invitee)).toHaveLength(0)
    expect(await statusOf(signIn(roda, invitee, PASSWORD))).toBe(401)

    await confirmEmail(api, owner.email)
    const { data: invited } = await okReply(profiles.invite({ payload: { email: invitee } }), 201)
    expect(invited.data.id).toMatch(UUID)
    expect(invited.data).toMatchObject({ email: invitee, status: "active" })
    const { data: created } = await okReply(profiles.create({ payload: { email: uniqueEmail("criada") } }), 201)
    expect(created.data.id).toMatch(UUID)
  })

  it("the role is checked first: an unverified member without the role hears about the role", async () => {
    const setup = await newCommunity(api, "Papel primeiro")
    const member = await unverifiedMember(setup, "member")
    const { body } = await failsReply(
      typed.as(member, setup.community).profiles.invite({ payload: { email: uniqueEmail() } }),
      403
    )
    expect(body.message).not.toBe(NOT_VERIFIED)
  })

  it("opening a call for papers", async () => {
    const setup = await callCommunity(api, "Chamada sem confirmar")
    const admin = await unverifiedMember(setup, "admin")
    const open = () =>
      typed.as(admin, setup.community).call4papersCalls.open({
        payload: { spaceId: setup.space.id, title: "Chamada de palestras" }
      })
    await failsReply(open(), 403, NOT_VERIFIED)
    await confirmEmail(api, admin.email)
    const { data: opened } = await okReply(open(), 201)
    expect(opened.data.id).toMatch(UUID)
  })

  it("requesting a payout", async () => {
    const shop = await sellingCommunity(api, "Saque sem confirmar")
    await recordSale(roda, shop.community.id, { method: "PIX", amount: 10000 })
    const finance = await unverifiedMember(shop, "finance")
    const admin = await unverifiedMember(shop, "admin")
    const payouts = typed.as(admin, shop.community).payouts
    await failsReply(payouts.request({ payload: { amount: 1000 } }), 403, NOT_VERIFIED)
    // not a manager of payouts: the role answers, whatever the e-mail
    const byFinance = await failsReply(
      typed.as(finance, shop.community).payouts.request({ payload: { amount: 1000 } }),
      403
    )
    expect(byFinance.body.message).not.toBe(NOT_VERIFIED)
    // the refused request booked nothing
    expect((await okReply(payouts.list({ urlParams: {} }), 200)).data.data).toEqual([])

    await confirmEmail(api, admin.email)
    const { data: requested } = await okReply(payouts.request({ payload: { amount: 1000 } }), 201)
    expect(requested.data.id).toMatch(UUID)
    expect(requested.data).toMatchObject({ amount: 1000, status: "pending" })
  })

  it("answers in English on request", async () => {
    const owner = await registerUnverified(api, "Owner")
    const community = await communityOf(owner, `English ${owner.id}`)
    const english = typed.clientOf({ token: owner.token, communityId: community.id, language: "en" })
    await failsReply(english.profiles.invite({ payload: { email: uniqueEmail() } }), 403, Messages.emailNotVerified.en)
  })
})

describe("becoming a platform operator needs the verified e-mail", () => {
  it("a listed address is an operator only after its sign-up link is used", async () => {
    const listed = uniqueEmail("operadora")
    const operated = startRoda({ platformAdminEmails: [listed] })
    try {
      const other = client(operated)
      const operator = await registerUnverified(other, "Operadora", listed)
      const asOperator = wireContract(operated).as(operator)
      const before = (await okReply(meOf(operated, operator.token), 200)).data.data
      expect(before).toMatchObject({ emailVerified: false, isPlatformAdmin: false })
      await failsReply(asOperator.operatorAudit.list({ urlParams: { limit: 1 } }), 403)
      await confirmEmail(other, listed)
      const after = (await okReply(meOf(operated, operator.token), 200)).data.data
      expect(after).toMatchObject({ emailVerified: true, isPlatformAdmin: true })
      await okReply(asOperator.operatorAudit.list({ urlParams: { limit: 1 } }), 200)
    } finally {
      await operated.dispose()
    }
  })
})
