import { beforeAll, describe, expect, it } from "vitest"
import {
  type Api,
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
/** A failure reason a spreadsheet would run as a formula. */
const FORMULA = "=HYPERLINK(\"http://evil.example\")"
const world = await makeWorld([OPERATOR])
let owner: User
let first: { community: string; payout: string }
let second: { community: string; payout: string }

/** A community allowed to sell (approved through the HTTP admin routes), with a PIX sale and a payout request. */
const fundedPayout = async (api: Api, operator: User, amount: number) => {
  const community = await createCommunity(api, owner)
  await submitBusiness(api, owner, community.id)
  await submitPayoutSettings(api, owner, community.id)
  const admin = { token: operator.token }
  await api.post(`/api/admin/communities/${community.id}/business-information/approve`, {}, admin)
  await api.post(`/api/admin/communities/${community.id}/payout-settings/approve`, {}, admin)
  await recordSale(api, community.id, 10_000)
  const payout = await api.post("/api/payouts", { amount }, { token: owner.token, community: community.id })
  return { community: community.id, payout: payout.id as string }
}

beforeAll(async () => {
  await world.withRoda(async (api) => {
    const operator = await operatorAccount(api, OPERATOR)
    owner = await register(api, uniqueEmail("owner"))
    first = await fundedPayout(api, operator, 5_000)
    second = await fundedPayout(api, operator, 3_000)
  })
})

describe("roda payouts", SPAWNS, () => {
  it("lists payouts with filters, as JSON and as a table", async () => {
    const all = jsonOf(await world.cli(["payouts", "list", "--as", OPERATOR, "--json"]))
    const ids = all.data.map((row: any) => row.id)
    expect(ids).toContain(first.payout)
    expect(ids).toContain(second.payout)
    expect(all.data.find((row: any) => row.id === first.payout)).toMatchObject({
      communityId: first.community,
      status: "pending",
      amount: 5_000,
      fee: 200,
      currency: "BRL"
    })

    const onlyFirst = jsonOf(
      await world.cli([
        "payouts",
        "list",
        "--community",
        first.community,
        "--status",
        "pending",
        "--as",
        OPERATOR,
        "--json"
      ])
    )
    expect(onlyFirst.data.map((row: any) => row.id)).toEqual([first.payout])
    const paidOnly = jsonOf(
      await world.cli(["payouts", "list", "-c", first.community, "--status", "paid", "--as", OPERATOR, "--json"])
    )
    expect(paidOnly.data).toEqual([])

    const table = await world.cli(["payouts", "list", "-c", first.community, "--as", OPERATOR])
    expect(table.code).toBe(0)
    const [header, row] = table.stdout.trim().split("\n")
    expect(header).toMatch(/^ID\s+COMMUNITY\s+STATUS\s+AMOUNT\s+FEE\s+CURRENCY/)
    expect(row).toMatch(new RegExp(`^${first.payout}\\s+${first.community}\\s+pending\\s+5000\\s+200\\s+BRL`))
  })

  it("shows one payout and moves it on: in transit, then paid; a move not allowed is refused (exit 1)", async () => {
    const shown = jsonOf(
      await world.cli(["payouts", "show", first.payout, "--community", first.community, "--as", OPERATOR, "--json"])
    )
    expect(shown).toMatchObject({
      id: first.payout,
      status: "pending",
      allowedMoves: ["in_transit", "canceled", "failed"]
    })

    const sent = jsonOf(
      await world.cli(["payouts", "in-transit", first.payout, "-c", first.community, "--as", OPERATOR, "--json"])
    )
    expect(sent).toMatchObject({ status: "in_transit" })
    expect(sent.inTransitAt).not.toBeNull()
    const paid = await world.cli(["payouts", "paid", first.payout, "-c", first.community, "--as", OPERATOR])
    expect(paid.code).toBe(0)
    expect(paid.stdout).toContain(`Payout ${first.payout} is paid`)

    const again = await world.cli(["payouts", "in-transit", first.payout, "-c", first.community, "--as", OPERATOR])
    expect(again.code).toBe(1)
    expect(errorLines(again)).toHaveLength(1)
    expect(errorLines(again)[0]).toMatch(/paid/)
  })

  it("marks a payout failed with a reason; without one it is a usage error (exit 2)", async () => {
    const noReason = await world.cli(["payouts", "failed", second.payout, "-c", second.community, "--as", OPERATOR])
    expect(noReason.code).toBe(2)
    const failed = jsonOf(
      await world.cli([
        "payouts",
        "failed",
        second.payout,
        "-c",
        second.community,
        "--reason",
        FORMULA,
        "--as",
        OPERATOR,
        "--json"
      ])
    )
    expect(failed).toMatchObject({ status: "failed", failureReason: FORMULA, allowedMoves: [] })
    // Another community's payout is not found there.
    const elsewhere = await world.cli(["payouts", "show", second.payout, "-c", first.community, "--as", OPERATOR])
    expect(elsewhere.code).toBe(1)
    expect(errorLines(elsewhere)).toHaveLength(1)
  })

  it("exports CSV to stdout and to a file", async () => {
    const parse = (csv: string) => csv.trim().split("\r\n").map((line) => line.split(","))
    const out = await world.cli(["payouts", "export", "--community", first.community, "--as", OPERATOR])
    expect(out.code).toBe(0)
    const [header, ...rows] = parse(out.stdout)
    expect(header).toEqual([
      "id",
      "communityId",
      "status",
      "amount",
      "fee",
      "total",
      "currency",
      "method",
      "destination",
      "requestedBy",
      "failureReason",
      "createdAt",
      "inTransitAt",
      "paidAt",
      "failedAt",
      "canceledAt"
    ])
    expect(rows).toHaveLength(1)
    const record = Object.fromEntries(header!.map((name, i) => [name, rows[0]![i]]))
    expect(record).toMatchObject({
      id: first.payout,
      communityId: first.community,
      status: "paid",
      amount: "5000",
      fee: "200",
      total: "5200",
      currency: "BRL",
      method: "PIX",
      destination: "PIX EMAIL financeiro@roda.test"
    })
    expect(new Date(record.paidAt!).toString()).not.toBe("Invalid Date")

    const file = `${world.dataDir}/payouts.csv`
    const toFile = await world.cli(["payouts", "export", "--status", "failed", "--output", file, "--as", OPERATOR])
    expect(toFile.code).toBe(0)
    const { readFile } = await import("node:fs/promises")
    const failedRows = parse(await readFile(file, "utf8")).slice(1)
    expect(failedRows.map((row) => row[0])).toContain(second.payout)
    expect(failedRows.every((row) => row[2] === "failed")).toBe(true)
    // A text a spreadsheet would run as a formula is written as text (OWASP CSV injection).
    expect(failedRows.find((row) => row[0] === second.payout)![10]).toBe("\"'=HYPERLINK(\"\"http://evil.example\"\")\"")
    expect(header!.indexOf("failureReason")).toBe(10)
  })

  it("refuses a non-operator (exit 1) and bad usage (exit 2)", async () => {
    const refused = await world.cli(["payouts", "list", "--as", owner.email])
    expect(refused.code).toBe(1)
    expect(errorLines(refused)).toEqual(["Apenas operadores da plataforma (SuperAdmin) podem fazer isto."])
    expect((await world.cli(["payouts", "list", "--status", "lost", "--as", OPERATOR])).code).toBe(2)
    expect((await world.cli(["payouts", "show", "nope", "-c", first.community, "--as", OPERATOR])).code).toBe(2)
    expect((await world.cli(["payouts", "list", "--limit", "500", "--as", OPERATOR])).code).toBe(2)
  })
})
