import { beforeAll, describe, expect, it } from "vitest"
import {
  createCommunity,
  errorLines,
  jsonOf,
  makeWorld,
  operatorAccount,
  recordSale,
  register,
  SPAWNS,
  submitBusiness,
  submitPayoutSettings,
  uniqueEmail,
  type User
} from "./support"

const OPERATOR = uniqueEmail("ops")
/** A second operator, who acts over HTTP. */
const OTHER_OPERATOR = uniqueEmail("ops2")
const SUPERADMIN_ONLY = "Apenas operadores da plataforma (SuperAdmin) podem fazer isto."

const world = await makeWorld([OPERATOR, OTHER_OPERATOR])
let operator: User
let other: User
let owner: User
let shop: { id: string }

beforeAll(async () => {
  await world.withRoda(async (api) => {
    operator = await operatorAccount(api, OPERATOR)
    other = await operatorAccount(api, OTHER_OPERATOR)
    owner = await register(api, uniqueEmail("owner"))
    shop = await createCommunity(api, owner, "Loja Auditada")
    await submitBusiness(api, owner, shop.id)
    await submitPayoutSettings(api, owner, shop.id)
  })
})

const audit = (...args: Array<string>) =>
  world.cli(["admin", "audit", "--community", shop.id, "--as", OPERATOR, ...args])

/** Each run of the binary opens the database: a few of them take longer than the default timeout. */
const SLOW = 240_000
let payoutId: string
let listed: any

describe("roda admin audit", SPAWNS, () => {
  it("records what the CLI does with the --as operator as the actor, and lists it as JSON", async () => {
    const base = ["--as", OPERATOR, "--json"]
    jsonOf(await world.cli(["admin", "reviews", "approve", "business", shop.id, ...base]))
    jsonOf(await world.cli(["admin", "reviews", "reject", "payout", shop.id, "--reason", "Chave errada", ...base]))
    jsonOf(await world.cli(["admin", "fees", "set", shop.id, "PIX", "--percent-bps", "150", "--fixed", "0", ...base]))
    // refused (interest on PIX): nothing recorded
    const refused = await world.cli(
      ["admin", "fees", "set", shop.id, "PIX", "--percent-bps", "1", "--fixed", "0", "--interest-bps", "5", ...base]
    )
    expect(refused.code).toBe(1)

    // the second operator approves the payout settings over HTTP, the owner asks for a payout
    payoutId = await world.withRoda(async (api) => {
      await submitPayoutSettings(api, owner, shop.id)
      await api.post(`/api/admin/communities/${shop.id}/payout-settings/approve`, {}, { token: other.token })
      await recordSale(api, shop.id, 10_000)
      const payout = await api.post("/api/payouts", { amount: 1_000 }, { token: owner.token, community: shop.id })
      return payout.id as string
    })
    jsonOf(await world.cli(["payouts", "in-transit", payoutId, "--community", shop.id, ...base]))

    listed = jsonOf(await audit("--json"))
    expect(listed.nextCursor).toBeNull()
    expect(listed.data.map((entry: any) => [entry.action, entry.actor.email])).toEqual([
      ["payout.in_transit", OPERATOR],
      ["payout_settings.approve", OTHER_OPERATOR],
      ["fee_override.set", OPERATOR],
      ["payout_settings.reject", OPERATOR],
      ["business_information.approve", OPERATOR]
    ])
    // The CLI acts from no client address.
    const fromCli = listed.data.filter((entry: any) => entry.actor.email === OPERATOR)
    expect(fromCli.map((entry: any) => entry.clientAddress)).toEqual([null, null, null, null])
    const [inTransit, , fee, rejected] = listed.data
    expect(inTransit).toMatchObject({
      actor: { id: operator.id, email: OPERATOR },
      target: { type: "payout", id: payoutId },
      communityId: shop.id,
      details: { amount: 1_000, currency: "BRL" }
    })
    expect(fee).toMatchObject({ target: { type: "fee_override", id: "PIX" }, details: { percentBps: 150, fixed: 0 } })
    expect(rejected).toMatchObject({ details: { reason: "Chave errada" } })
  }, SLOW)

  it("shows a table, filters by action and actor, and pages with a cursor", async () => {
    const human = await audit()
    expect(human.code).toBe(0)
    const [header, ...rows] = human.stdout.trim().split("\n")
    expect(header).toMatch(/^AT\s+ACTOR\s+ACTION\s+TARGET\s+COMMUNITY\s+DETAILS$/)
    expect(rows).toHaveLength(5)
    expect(rows[0]).toContain(OPERATOR)
    expect(rows[0]).toContain(`payout:${payoutId}`)

    const onlyFees = jsonOf(await audit("--action", "fee_override.set", "--json"))
    expect(onlyFees.data.map((entry: any) => entry.action)).toEqual(["fee_override.set"])
    const byOther = jsonOf(await audit("--actor", other.id, "--json"))
    expect(byOther.data.map((entry: any) => entry.action)).toEqual(["payout_settings.approve"])

    const paged = jsonOf(await audit("--limit", "2", "--json"))
    expect(paged.data).toHaveLength(2)
    const rest = jsonOf(await audit("--limit", "3", "--cursor", paged.nextCursor, "--json"))
    expect([...paged.data, ...rest.data].map((entry: any) => entry.id)).toEqual(
      listed.data.map((entry: any) => entry.id)
    )
  }, SLOW)

  it("is for platform operators (exit 1) and refuses bad filters as usage (exit 2)", async () => {
    const notOperator = await world.cli(["admin", "audit", "--as", owner.email])
    expect(notOperator.code).toBe(1)
    expect(notOperator.stdout).toBe("")
    expect(errorLines(notOperator)).toEqual([SUPERADMIN_ONLY])

    expect((await audit("--action", "payout.stolen")).code).toBe(2)
    const badActor = await audit("--actor", "someone")
    expect(badActor.code).toBe(2)
    expect(errorLines(badActor)).toEqual(["actor: \"someone\" não é um identificador (UUID)."])
    const badSince = await audit("--since", "yesterday")
    expect(badSince.code).toBe(2)
    expect(errorLines(badSince)).toHaveLength(1)
    expect(errorLines(badSince)[0]).toContain("--since")
    const backwards = await audit("--since", "2030-05-02", "--until", "2030-05-01")
    expect(backwards.code).toBe(1)
    expect(errorLines(backwards)).toEqual(["since must be before until"])
  }, SLOW)
})
