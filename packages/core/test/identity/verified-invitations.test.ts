import { afterAll, describe, expect, it } from "vitest"
import { c4pSetup, submitted } from "../call4papers/submissions-support"
import { as, type TestCommunity } from "../support/community"
import { expectCreated, expectError, expectOk } from "../support/envelope"
import { type Client, client, confirmEmail, registerUnverified, startRoda, type TestUser } from "../support/harness"
import { outboxFor } from "../support/outbox"

/** Issue 52 item 4: call4papers invitations e-mail others, so they need a verified e-mail too. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const NOT_VERIFIED =
  "Confirme seu e-mail antes: use o link que enviamos (ou peça outro em POST /api/auth/verify-email)."

/** An account that never used its sign-up link, made a member of `setup` with `role` (it accepts the invitation). */
const unverifiedMember = async (client: Client, setup: TestCommunity, role: string): Promise<TestUser> => {
  const user = await registerUnverified(client, `${role} sem confirmar`)
  const invited = expectCreated(
    await client.post("/api/profiles/create", { email: user.email, role }, as(setup.owner, setup.community))
  )
  expectOk(await client.post(`/api/profiles/${invited.id}/accept`, undefined, as(user, setup.community)))
  return user
}

describe("acts that need a verified e-mail answer 403 until the link is used", () => {
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
})
