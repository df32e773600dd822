import { afterAll, describe, expect, it } from "vitest"
import { communityMessages } from "../src/communities/messages"
import { identityMessages } from "../src/identity/messages"
import { uniqueAddress } from "./support/auth"
import { as, newCommunity } from "./support/community"
import { expectError, expectInvalid, expectOk } from "./support/envelope"
import {
  client,
  PASSWORD,
  PLATFORM_ADMIN,
  register,
  registerUnverified,
  startRoda,
  uniqueEmail
} from "./support/harness"
import { confirmLinkFor as linkFor, outboxFor, passwordLinkFor, waitForMail } from "./support/outbox"
import { expireLinks } from "./support/sql"

/**
 * Issue 10, items 1 and 2: only the holder changes the login e-mail, and only through a link sent to
 * the new address; operator rights need a verified e-mail.
 */
const BOSS = uniqueEmail("boss")
const roda = startRoda({ platformAdminEmails: [PLATFORM_ADMIN, BOSS] })
const api = client(roda)
afterAll(() => roda.dispose())

/** The `id` and `token` of the newest confirm-email link of `kind` sent to `recipient`. */
const confirmLinkFor = async (recipient: string, kind = "email-change") => {
  const { id, token } = await linkFor(roda, recipient, kind)
  return { id, token }
}

const login = (email: string, password = PASSWORD) =>
  api.post("/api/auth/login", { email, password }, { clientAddress: uniqueAddress() })

const me = async (token: string) => expectOk(await api.get("/api/auth/me", { token }))

describe("PUT /api/profiles/{id}/email", () => {
  it("refuses staff on someone else's profile, even when the account is only in this community", async () => {
    const { owner, community, addMember } = await newCommunity(api)
    const admin = await addMember("admin")
    const member = await addMember("member")
    for (const actor of [owner, admin]) {
      expectError(
        await api.put(
          `/api/profiles/${member.profileId}/email`,
          { currentPassword: PASSWORD, email: uniqueEmail("attacker") },
          as(actor, community)
        ),
        403,
        communityMessages.emailOnlyByHolder.pt
      )
    }
    expect((await outboxFor(roda, member.email)).map((m) => m.kind)).toEqual(["verify-email", "invitation"])
    expect(await me(member.token)).toMatchObject({ email: member.email })
    // staff may still edit community-level fields
    expectOk(await api.put(`/api/profiles/${member.profileId}`, { bio: "Editado" }, as(owner, community)))
  })

  it("changes nothing until the link sent to the new address is used; the old address is told", async () => {
    const { community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    const wanted = uniqueEmail("new")
    const reply = await api.put(
      `/api/profiles/${member.profileId}/email`,
      { currentPassword: PASSWORD, email: wanted },
      as(member, community)
    )
    const data = expectOk(reply, 202, communityMessages.emailChangePending.pt)
    expect(data).toMatchObject({ id: member.profileId, email: member.email, pendingEmail: wanted })
    expect((await outboxFor(roda, member.email)).map((m) => m.kind)).toEqual([
      "verify-email",
      "invitation",
      "email-change-notice"
    ])
    expect((await outboxFor(roda, wanted)).map((m) => m.kind)).toEqual(["email-change"])
    // still the old login
    expectOk(await login(member.email))
    expectError(await login(wanted), 401)
    // the old address, confirmed at sign-up, is still the login
    expect(await me(member.token)).toMatchObject({ email: member.email, emailVerified: true })

    const link = await confirmLinkFor(wanted)
    expectError(await api.post("/api/auth/confirm-email", { id: link.id, token: "wrong" }), 400)
    const confirmed = expectOk(await api.post("/api/auth/confirm-email", link), 200, identityMessages.emailConfirmed.pt)
    expect(confirmed).toEqual({ email: wanted })
    expectError(await api.post("/api/auth/confirm-email", link), 410)
    expectOk(await login(wanted))
    expectError(await login(member.email), 401)
    expect(await me(member.token)).toMatchObject({ email: wanted, emailVerified: true })
  })

  it("answers 409 for a taken address at the request, and again at confirmation", async () => {
    const { community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    const other = await register(api)
    expectError(
      await api.put(
        `/api/profiles/${member.profileId}/email`,
        { currentPassword: PASSWORD, email: other.email },
        as(member, community)
      ),
      409,
      identityMessages.emailTaken.pt
    )
    const wanted = uniqueEmail("race")
    expectOk(
      await api.put(
        `/api/profiles/${member.profileId}/email`,
        { currentPassword: PASSWORD, email: wanted },
        as(member, community)
      ),
      202
    )
    await register(api, "Quick Taker", wanted)
    const link = await confirmLinkFor(wanted)
    expectError(await api.post("/api/auth/confirm-email", link), 409, identityMessages.emailTaken.pt)
    expect(await me(member.token)).toMatchObject({ email: member.email })
  })

  it("closes links sent to the old address once the new one is confirmed, and refuses expired links", async () => {
    const { community, addMember } = await newCommunity(api)
    const member = await addMember("member")
    expectOk(await api.post("/api/auth/recovery-password", { email: member.email }))
    await waitForMail(roda, member.email, "password-recovery")
    const recovery = await passwordLinkFor(roda, member.email, "password-recovery")
    const wanted = uniqueEmail("moved")
    expectOk(
      await api.put(
        `/api/profiles/${member.profileId}/email`,
        { currentPassword: PASSWORD, email: wanted },
        as(member, community)
      ),
      202
    )
    expectOk(await api.post("/api/auth/confirm-email", await confirmLinkFor(wanted)))
    expectError(
      await api.post("/api/auth/set-password", { id: recovery.id, token: recovery.token, password: "Hijack123" }),
      410
    )

    const later = uniqueEmail("later")
    expectOk(
      await api.put(
        `/api/profiles/${member.profileId}/email`,
        { currentPassword: PASSWORD, email: later },
        as(member, community)
      ),
      202
    )
    await expireLinks(roda, member.id)
    expectError(await api.post("/api/auth/confirm-email", await confirmLinkFor(later)), 410)
  })

  it("validates the body of confirm-email", async () => {
    expectInvalid(await api.post("/api/auth/confirm-email", { id: "nope", token: "x" }), "id")
    expectInvalid(await api.post("/api/auth/confirm-email", { id: crypto.randomUUID(), token: "" }), "token")
  })
})

describe("operator rights need a verified e-mail", () => {
  it("a listed but unverified e-mail is not an operator; using a recovery link verifies it", async () => {
    const boss = await registerUnverified(api, "Boss", BOSS)
    expect(await me(boss.token)).toMatchObject({ emailVerified: false, isPlatformAdmin: false })
    const { community } = await newCommunity(api)
    expectError(
      await api.post(`/api/admin/communities/${community.id}/business-information/approve`, {}, { token: boss.token }),
      403
    )
    expectOk(await api.post("/api/auth/recovery-password", { email: BOSS }))
    await waitForMail(roda, BOSS, "password-recovery")
    const link = await passwordLinkFor(roda, BOSS, "password-recovery")
    expectOk(await api.post("/api/auth/set-password", { id: link.id, token: link.token, password: PASSWORD }))
    expect(await me(boss.token)).toMatchObject({ emailVerified: true, isPlatformAdmin: true })
  })

  it("an account that moves to a listed address is an operator only once that address is confirmed", async () => {
    const { addMember } = await newCommunity(api)
    const member = await addMember("member")
    // the member verified their own address with the link sign-up sent
    expect(await me(member.token)).toMatchObject({ emailVerified: true, isPlatformAdmin: false })
    // a second verification request sends nothing
    expectOk(await api.post("/api/auth/verify-email", undefined, { token: member.token }))
    expect((await outboxFor(roda, member.email)).filter((m) => m.kind === "verify-email")).toHaveLength(1)

    const listed = uniqueEmail("chief")
    const custom = startRoda({ platformAdminEmails: [listed] })
    try {
      const other = client(custom)
      const person = await register(other, "Chief")
      const made = await other.post("/api/communities", { name: "Chefia" }, { token: person.token })
      const profileId = expectOk(made, 201).profileId
      const scoped = { token: person.token, community: expectOk(made, 201).id }
      expectOk(
        await other.put(`/api/profiles/${profileId}/email`, { currentPassword: PASSWORD, email: listed }, scoped),
        202
      )
      expect(expectOk(await other.get("/api/auth/me", { token: person.token }))).toMatchObject({
        isPlatformAdmin: false
      })
      const mails = (await outboxFor(custom, listed)).filter((m) => m.kind === "email-change")
      const url = new URL(/https?:\/\/\S+\/confirm-email\?\S+/.exec(mails[0]!.body)![0])
      expectOk(
        await other.post("/api/auth/confirm-email", {
          id: url.searchParams.get("id"),
          token: url.searchParams.get("token")
        })
      )
      expect(expectOk(await other.get("/api/auth/me", { token: person.token }))).toMatchObject({
        email: listed,
        emailVerified: true,
        isPlatformAdmin: true
      })
    } finally {
      await custom.dispose()
    }
  })
})
