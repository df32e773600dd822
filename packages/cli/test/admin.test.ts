import { beforeAll, describe, expect, it } from "vitest"
import {
  createCommunity,
  errorLines,
  jsonOf,
  makeWorld,
  operatorAccount,
  register,
  registerUnverified,
  SPAWNS,
  submitBusiness,
  submitPayoutSettings,
  uniqueEmail
} from "./support"

const OPERATOR = uniqueEmail("ops")
/** Listed as an operator but never verified: not an operator yet. */
const UNVERIFIED = uniqueEmail("late")
const SUPERADMIN_ONLY = "Apenas operadores da plataforma (SuperAdmin) podem fazer isto."

const world = await makeWorld([OPERATOR, UNVERIFIED])
let shop: { id: string }
let other: { id: string }
let member: string

beforeAll(async () => {
  await world.withRoda(async (api) => {
    await operatorAccount(api, OPERATOR)
    await registerUnverified(api, UNVERIFIED)
    const owner = await register(api, uniqueEmail("owner"))
    member = uniqueEmail("member")
    await register(api, member)
    shop = await createCommunity(api, owner, "Loja do Teste")
    await submitBusiness(api, owner, shop.id)
    await submitPayoutSettings(api, owner, shop.id)
    other = await createCommunity(api, owner)
    await submitBusiness(api, owner, other.id)
  })
})

describe("roda admin reviews", SPAWNS, () => {
  it("lists what waits for review, as JSON and as a table", async () => {
    const queue = jsonOf(await world.cli(["admin", "reviews", "list", "--as", OPERATOR, "--json"]))
    const mine = queue.filter((row: any) => row.communityId === shop.id)
    expect(mine.map((row: any) => row.subject).sort()).toEqual(["business", "payout"])
    expect(mine[0]).toMatchObject({ communityName: "Loja do Teste" })
    expect(queue.some((row: any) => row.communityId === other.id && row.subject === "business")).toBe(true)

    const human = await world.cli(["admin", "reviews", "list", "--as", OPERATOR])
    expect(human.code).toBe(0)
    const [header, ...rows] = human.stdout.trim().split("\n")
    expect(header).toMatch(/^SUBJECT\s+COMMUNITY\s+NAME\s+SUBMITTED$/)
    expect(rows.some((line) => line.startsWith("business") && line.includes(shop.id))).toBe(true)
  })

  it("shows one community's submissions", async () => {
    const review = jsonOf(await world.cli(["admin", "reviews", "show", shop.id, "--as", OPERATOR, "--json"]))
    expect(review).toMatchObject({
      communityId: shop.id,
      communityName: "Loja do Teste",
      business: { status: "PENDING", legalName: "Roda Cursos Ltda", taxId: "11222333000181" },
      payout: { status: "PENDING", method: "PIX", pixKey: "financeiro@roda.test" }
    })
    const human = await world.cli(["admin", "reviews", "show", shop.id, "--as", OPERATOR])
    expect(human.stdout).toContain("Business information")
    expect(human.stdout).toMatch(/legalName\s+Roda Cursos Ltda/)
  })

  it("approves and rejects with a reason; a second decision is refused with the domain's message (exit 1)", async () => {
    const approved = jsonOf(
      await world.cli(["admin", "reviews", "approve", "business", shop.id, "--as", OPERATOR, "--json"])
    )
    expect(approved).toMatchObject({ communityId: shop.id, status: "APPROVED" })
    expect(approved.reviewedAt).not.toBeNull()

    const rejected = jsonOf(
      await world.cli([
        "admin",
        "reviews",
        "reject",
        "payout",
        shop.id,
        "--reason",
        "Chave PIX não pertence à empresa",
        "--as",
        OPERATOR,
        "--json"
      ])
    )
    expect(rejected).toMatchObject({ status: "REJECTED", rejectionReason: "Chave PIX não pertence à empresa" })

    const again = await world.cli(["admin", "reviews", "approve", "business", shop.id, "--as", OPERATOR])
    expect(again.code).toBe(1)
    expect(again.stdout).toBe("")
    expect(errorLines(again)).toHaveLength(1)
    expect(errorLines(again)[0]).toMatch(/APPROVED/)

    // Both decisions are gone from the queue; the other community still waits.
    const queue = jsonOf(await world.cli(["admin", "reviews", "list", "--as", OPERATOR, "--json"]))
    expect(queue.filter((row: any) => row.communityId === shop.id)).toEqual([])
    expect(queue.some((row: any) => row.communityId === other.id)).toBe(true)

    // The owners were told, as with the HTTP routes.
    const mails = await world.withRoda((api) =>
      api.sql<{ kind: string; subject: string }>((sql) =>
        sql`SELECT kind, subject FROM outbox WHERE community_id = ${shop.id} ORDER BY created_at`
      )
    )
    expect(mails.length).toBeGreaterThanOrEqual(2)
  })

  it("refuses an account that is not a verified platform operator (exit 1, one line)", async () => {
    for (const email of [member, UNVERIFIED]) {
      const refused = await world.cli(["admin", "reviews", "list", "--as", email])
      expect(refused.code).toBe(1)
      expect(refused.stdout).toBe("")
      expect(errorLines(refused)).toEqual([SUPERADMIN_ONLY])
    }
    const english = await world.cli(["admin", "reviews", "list", "--as", member], { LANG: "en_US.UTF-8" })
    expect(errorLines(english)).toEqual(["Only platform operators (SuperAdmin) may do this."])
    const unknown = await world.cli(["admin", "reviews", "list", "--as", "nobody@roda.test"])
    expect(unknown.code).toBe(1)
    expect(errorLines(unknown)).toEqual(["Nenhuma conta com o e-mail nobody@roda.test."])
  })

  it("answers 2 for bad usage", async () => {
    const badId = await world.cli(["admin", "reviews", "approve", "business", "not-an-id", "--as", OPERATOR])
    expect(badId.code).toBe(2)
    expect(errorLines(badId)).toEqual(["communityId: \"not-an-id\" não é um identificador (UUID)."])
    const noReason = await world.cli(["admin", "reviews", "reject", "business", other.id, "--as", OPERATOR])
    expect(noReason.code).toBe(2)
    expect(noReason.stderr).toContain("--reason")
    expect((await world.cli(["admin", "reviews", "approve", "nonsense", other.id, "--as", OPERATOR])).code).toBe(2)
    expect((await world.cli(["admin", "reviews", "list"])).code).toBe(2)
    expect((await world.cli(["admin", "bogus"])).code).toBe(2)
    expect((await world.cli(["nothing-like-this"])).code).toBe(2)
  })
})

describe("roda admin fees", SPAWNS, () => {
  it("sets, shows and removes a community's fee override", async () => {
    const saved = jsonOf(
      await world.cli([
        "admin",
        "fees",
        "set",
        shop.id,
        "CREDIT_CARD",
        "--percent-bps",
        "250",
        "--fixed",
        "30",
        "--interest-bps",
        "150",
        "--as",
        OPERATOR,
        "--json"
      ])
    )
    expect(saved).toMatchObject({
      communityId: shop.id,
      paymentMethod: "CREDIT_CARD",
      percentBps: 250,
      fixed: 30,
      interestRateBps: 150,
      overridden: true
    })

    const fees = jsonOf(await world.cli(["admin", "fees", "show", shop.id, "--as", OPERATOR, "--json"]))
    expect(fees.communityId).toBe(shop.id)
    const card = fees.methods.find((method: any) => method.paymentMethod === "CREDIT_CARD")
    expect(card).toMatchObject({ percentBps: 250, fixed: 30, overridden: true })
    expect(fees.methods.find((method: any) => method.paymentMethod === "PIX").overridden).toBe(false)

    const table = await world.cli(["admin", "fees", "show", shop.id, "--as", OPERATOR])
    expect(table.stdout).toMatch(/CREDIT_CARD\s+250\s+30\s+150\s+\d+\s+\d+\s+yes/)

    const removed = jsonOf(
      await world.cli(["admin", "fees", "remove", shop.id, "CREDIT_CARD", "--as", OPERATOR, "--json"])
    )
    expect(removed).toMatchObject({ paymentMethod: "CREDIT_CARD", overridden: false })
    expect(removed.percentBps).not.toBe(250)
  })

  it("refuses what the service refuses (exit 1) and values out of range (exit 2)", async () => {
    const interestOnPix = await world.cli([
      "admin",
      "fees",
      "set",
      shop.id,
      "PIX",
      "--percent-bps",
      "100",
      "--fixed",
      "0",
      "--interest-bps",
      "100",
      "--as",
      OPERATOR
    ])
    expect(interestOnPix.code).toBe(1)
    expect(errorLines(interestOnPix)).toHaveLength(1)
    const unknownCommunity = await world.cli([
      "admin",
      "fees",
      "show",
      "0190a8e6-0000-7000-8000-000000000000",
      "--as",
      OPERATOR
    ])
    expect(unknownCommunity.code).toBe(1)
    expect(errorLines(unknownCommunity)).toEqual(["Comunidade não encontrada."])
    const tooHigh = await world.cli(
      ["admin", "fees", "set", shop.id, "PIX", "--percent-bps", "20000", "--fixed", "0", "--as", OPERATOR]
    )
    expect(tooHigh.code).toBe(2)
    const notOperator = await world.cli(["admin", "fees", "show", shop.id, "--as", member])
    expect(notOperator.code).toBe(1)
    expect(errorLines(notOperator)).toEqual([SUPERADMIN_ONLY])
  })
})

describe("roda admin sessions end", SPAWNS, () => {
  const status = async (api: { roda: { handler: (request: Request) => Promise<Response> } }, token: string) =>
    (await api.roda.handler(
      new Request("http://roda.test/api/auth/me", { headers: { authorization: `Bearer ${token}` } })
    )).status

  it("ends every session of an account (by e-mail or id), recorded in the operator audit log", async () => {
    const target = uniqueEmail("taken")
    const { first, second } = await world.withRoda(async (api) => {
      const user = await register(api, target)
      const again = await api.post("/api/auth/login", { email: target, password: "Secret123" })
      return { first: user, second: again.token as string }
    })
    const ended = jsonOf(await world.cli(["admin", "sessions", "end", target, "--as", OPERATOR, "--json"]))
    expect(ended).toEqual({ accountId: first.id, sessions: 2, connections: 0 })
    const byId = jsonOf(
      await world.cli(["admin", "sessions", "end", first.id.toUpperCase(), "--as", OPERATOR, "--json"])
    )
    expect(byId).toEqual({ accountId: first.id, sessions: 0, connections: 0 })
    await world.withRoda(async (api) => {
      expect(await status(api, first.token)).toBe(401)
      expect(await status(api, second)).toBe(401)
    })
    const log = jsonOf(
      await world.cli(["admin", "audit", "--action", "account.sessions_end", "--as", OPERATOR, "--json"])
    )
    expect(log.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ target: { type: "account", id: first.id } })])
    )
  })

  it("refuses a non-operator, and an unknown account", async () => {
    const refused = await world.cli(["admin", "sessions", "end", member, "--as", member])
    expect(refused.code).toBe(1)
    expect(errorLines(refused)).toEqual([SUPERADMIN_ONLY])
    const unknown = await world.cli(["admin", "sessions", "end", "nobody@roda.test", "--as", OPERATOR])
    expect(unknown.code).toBe(1)
    expect(errorLines(unknown)).toEqual(["Nenhuma conta com o e-mail nobody@roda.test."])
  })
})
