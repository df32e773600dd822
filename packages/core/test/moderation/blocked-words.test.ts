import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectInvalid, expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { type ModerationCommunity, moderationCommunity } from "./setup"

/** Issue 56: the community settings `moderation.blockedWords` and `holdFirstPosts`, and how words match. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let m: ModerationCommunity
beforeAll(async () => {
  m = await moderationCommunity(api, "Palavras")
})

const settings = (moderation: Record<string, unknown>, user: { token: string } = m.owner) =>
  api.patch(`/api/communities/${m.community.id}/settings`, { moderation }, m.in(user))
const pending = async (body: string) =>
  expectOk(await api.post("/api/status", { body }, m.in(m.alice)), 201).pending as boolean

describe("moderation settings", () => {
  it("validates holdFirstPosts (0 to 20, whole) and blockedWords (≤ 200 single words of ≤ 50 characters)", async () => {
    expectInvalid(await settings({ holdFirstPosts: 21 }), "moderation.holdFirstPosts")
    expectInvalid(await settings({ holdFirstPosts: -1 }), "moderation.holdFirstPosts")
    expectInvalid(await settings({ holdFirstPosts: 1.5 }), "moderation.holdFirstPosts")
    expectInvalid(await settings({ blockedWords: "golpe" }), "moderation.blockedWords")
    expectInvalid(await settings({ blockedWords: ["x".repeat(51)] }), "moderation.blockedWords.0")
    expectInvalid(await settings({ blockedWords: ["duas palavras"] }), "moderation.blockedWords.0")
    expectInvalid(await settings({ blockedWords: [""] }), "moderation.blockedWords.0")
    const many = Array.from({ length: 201 }, (_, i) => `palavra${i}`)
    expectInvalid(await settings({ blockedWords: many }), "moderation.blockedWords")
  })

  it("stores blocked words normalized (lower case, no accents, once) and merges the moderation fields", async () => {
    const saved = expectOk(await settings({ blockedWords: [" Pirâmide ", "piramide", "GOLPE"] }))
    expect(saved.settings.moderation).toEqual({ blockedWords: ["piramide", "golpe"] })
    const merged = expectOk(await settings({ holdFirstPosts: 0 }))
    expect(merged.settings.moderation).toEqual({ blockedWords: ["piramide", "golpe"], holdFirstPosts: 0 })
  })

  it("is changed by owner and admin only", async () => {
    expect((await settings({ holdFirstPosts: 0 }, m.moderator)).status).toBe(403)
    expect((await settings({ holdFirstPosts: 0 }, m.alice)).status).toBe(403)
  })
})

describe("matching blocked words", () => {
  it("matches whole words, case and accents ignored, whatever punctuation surrounds them", async () => {
    expectOk(await settings({ blockedWords: ["Pirâmide", "golpe", "çaça"] }))
    expect(await pending("Uma PIRAMIDE aqui")).toBe(true)
    expect(await pending("Uma pirâmide aqui")).toBe(true)
    expect(await pending("golpe!")).toBe(true)
    expect(await pending("(Golpe)")).toBe(true)
    expect(await pending("caca")).toBe(true)
    expect(await pending("golpeado, piramides e caçador")).toBe(false)
    expect(await pending("nada a ver")).toBe(false)
  })

  it("holds nothing once the list is empty", async () => {
    expectOk(await settings({ blockedWords: [] }))
    expect(await pending("golpe")).toBe(false)
  })
})
