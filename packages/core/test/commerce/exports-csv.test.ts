import { afterAll, describe, expect, it } from "vitest"
import { csvLine } from "../../src/domain/Csv"
import { as } from "../support/community"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { activeProduct } from "../support/selling"
import { query } from "../support/sql"
import { buyer, cardCheckout, shop } from "./checkout-support"
import { subscribed } from "./subscriptions-support"

/*
 * The CSV exports are written by PostgreSQL; each line must be byte for byte what `csvLine` writes
 * for the same sale or subscription as the lists answer it (text neutralised and quoted, amounts,
 * booleans, instants in UTC to the millisecond, empty cells for nulls).
 */

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

/** Names and titles a spreadsheet or a naive writer would get wrong, set in the tables as stored. */
const TRICKY = [
  "Linha 1\nLinha 2, \"citação\" — ção",
  "\tTabulado",
  "\rRetorno",
  "-2+3",
  "@SUM(A1)",
  "=HYPERLINK(\"http://evil.example\";\"x\")",
  "Zoë Ñandú 😀",
  "",
  "vírgula, só",
  "fim\r\n"
]

const setName = (profileId: string, name: string) =>
  query(roda, (sql) => sql`UPDATE profiles SET full_name = ${name} WHERE id = ${profileId} RETURNING id`)

const bodyOf = async (path: string, scoped: Parameters<typeof api.get>[1]) => {
  const reply = await api.get(path, scoped)
  expect(reply.status).toBe(200)
  return reply.body as string
}

const SALES_HEADER =
  "id,chargeId,status,buyerProfileId,buyerName,buyerEmail,productId,productTitle,paymentMethod,installments,currency,total,fee,net,refundedAmount,paidAt,createdAt\r\n"

/** The line `csvLine` writes for a sale of the sales list (`saleView`). */
const saleLine = (v: any) =>
  csvLine([
    v.id,
    v.chargeId,
    v.status,
    v.buyer.profileId,
    v.buyer.fullName,
    v.buyer.email,
    v.product.id,
    v.product.title,
    v.paymentMethod,
    v.installments,
    v.currency,
    v.total,
    v.fee,
    v.net,
    v.refundedAmount,
    v.paidAt,
    v.createdAt
  ])

describe("GET /api/manage/purchases/export.csv", () => {
  it("writes each sale as csvLine writes the sales list's view of it", async () => {
    const made = await shop(api, { title: "Curso, \"avançado\"" })
    const formula = await activeProduct(api, made.owner, made.community, { title: "=SUM(1)", price: 5000 })
    const sales: Array<any> = []
    const emails: Array<string> = []
    for (const [index, name] of TRICKY.entries()) {
      const who = buyer()
      const productId = index % 2 === 0 ? made.product.id : formula.id
      const checkout = cardCheckout(productId, { buyer: who })
      sales.push(expectOk(await api.post("/api/checkout", checkout, { community: made.community.id }), 201))
      emails.push(who.email)
      await setName(sales[index].profileId, name)
    }
    expectOk(await api.post(`/api/manage/purchases/${sales[1].purchaseId}/refund`, { reason: "x" }, made.scoped))
    expectOk(
      await api.post(`/api/manage/purchases/${sales[2].purchaseId}/refund`, { reason: "x", amount: 10 }, made.scoped)
    )
    // Microseconds the export must cut (not round) to milliseconds, a whole second, and no payment time.
    await query(
      roda,
      (sql) =>
        sql`UPDATE purchases SET created_at = '2026-01-02 03:04:05.678999+00' WHERE id = ${sales[0].purchaseId}
        RETURNING id`
    )
    await query(
      roda,
      (sql) => sql`UPDATE charges SET paid_at = '2026-03-04 05:06:07+00' WHERE id = ${sales[0].chargeId} RETURNING id`
    )
    await query(roda, (sql) => sql`UPDATE charges SET paid_at = NULL WHERE id = ${sales[3].chargeId} RETURNING id`)

    const items = expectOk(await api.get("/api/manage/purchases?limit=100", made.scoped))
    expect(items).toHaveLength(TRICKY.length)
    const body = await bodyOf("/api/manage/purchases/export.csv", made.scoped)
    expect(body).toBe(SALES_HEADER + items.map(saleLine).join(""))

    // The oracle above is the list; a few cells spelled out, so that both cannot go wrong alike.
    const lineOf = (index: number) => body.slice(body.indexOf(sales[index].purchaseId))
    expect(lineOf(0)).toContain(`,"Linha 1\nLinha 2, ""citação"" — ção",${emails[0]},${made.product.id},`)
    expect(lineOf(0)).toContain(",\"Curso, \"\"avançado\"\"\",CREDIT_CARD,1,BRL,")
    expect(lineOf(0)).toContain(",2026-03-04T05:06:07.000Z,2026-01-02T03:04:05.678Z\r\n")
    expect(lineOf(1)).toMatch(/^[^,]+,[^,]+,refunded,[^,]+,'\tTabulado,/)
    expect(lineOf(1)).toContain(",'=SUM(1),")
    expect(lineOf(2)).toMatch(/^[^,]+,[^,]+,partially_refunded,[^,]+,"'\rRetorno",/)
    expect(lineOf(3)).toMatch(/^[^\r\n]*,'-2\+3,[^\r\n]*,,\d{4}-[^,\r\n]+Z\r\n/)
    expect(lineOf(7)).toMatch(/^[^,]+,[^,]+,paid,[^,]+,,/)
    expect(lineOf(9)).toMatch(/^[^,]+,[^,]+,paid,[^,]+,"fim\r\n",/)

    const filtered = await bodyOf(`/api/manage/purchases/export.csv?productId=${formula.id}`, made.scoped)
    const ofFormula = items.filter((v: any) => v.product.id === formula.id)
    expect(ofFormula).toHaveLength(TRICKY.length / 2)
    expect(filtered).toBe(SALES_HEADER + ofFormula.map(saleLine).join(""))
  })
})

describe("GET /api/manage/subscriptions/export.csv", () => {
  it("writes each subscription as csvLine writes the team list's view of it", async () => {
    const made = await subscribed(api)
    const ids = [made.subscriptionId]
    const profiles = [made.member.profileId]
    for (const name of TRICKY.slice(1, 5)) {
      const member = await made.addMember("member", "Nome provisório")
      ids.push(await made.buy(made.premium.id, member))
      profiles.push(member.profileId)
      await setName(member.profileId, name)
    }
    await setName(made.member.profileId, TRICKY[0]!)
    await query(
      roda,
      (sql) => sql`UPDATE products SET title = ${"=Premium, \"anual\""} WHERE id = ${made.premium.id} RETURNING id`
    )
    await query(roda, (sql) =>
      sql`UPDATE subscriptions SET cancel_at_period_end = true, discount_percent = 15,
        canceled_at = '2026-05-06 07:08:09.123456+00', current_period_end = '10000-01-05 00:00:00.5+00'
        WHERE id = ${ids[1]} RETURNING id`)
    await query(roda, (sql) =>
      sql`UPDATE subscriptions SET current_period_start = NULL, current_period_end = NULL
        WHERE id = ${ids[2]} RETURNING id`)

    const items = expectOk(await api.get("/api/manage/subscriptions?limit=100", made.scoped))
    expect(items).toHaveLength(ids.length)
    const expected = [
      "id,status,cancelAtPeriodEnd,profileId,fullName,email,subscriptionGroupId,productId,productTitle,price,currency,discountPercent,currentPeriodStart,currentPeriodEnd,createdAt,canceledAt\r\n",
      ...items.map((v: any) =>
        csvLine([
          v.id,
          v.status,
          v.cancelAtPeriodEnd,
          v.member.profileId,
          v.member.fullName,
          v.member.email,
          v.subscriptionGroupId,
          v.productId,
          v.productTitle,
          v.price,
          v.currency,
          v.discountPercent,
          v.currentPeriodStart,
          v.currentPeriodEnd,
          v.createdAt,
          v.canceledAt
        ])
      )
    ].join("")
    const body = await bodyOf("/api/manage/subscriptions/export.csv", made.scoped)
    expect(body).toBe(expected)

    const lineOf = (index: number) => body.slice(body.indexOf(ids[index]!))
    expect(lineOf(0)).toContain(`,active,false,${profiles[0]},"Linha 1\nLinha 2, ""citação"" — ção",`)
    expect(lineOf(1)).toContain(`,active,true,${profiles[1]},'\tTabulado,`)
    expect(lineOf(1)).toContain(",\"'=Premium, \"\"anual\"\"\",9990,BRL,15,")
    expect(lineOf(1)).toMatch(/,'\+010000-01-05T00:00:00\.500Z,[^,]+,2026-05-06T07:08:09\.123Z\r\n/)
    expect(lineOf(2)).toMatch(/,BRL,,,,\d{4}-[^,]+Z,\r\n/)
    expect(lineOf(3)).toContain(`,${profiles[3]},'-2+3,`)

    const filtered = await bodyOf(`/api/manage/subscriptions/export.csv?profileId=${profiles[1]}`, made.scoped)
    expect(filtered.split("\r\n")).toHaveLength(3)
    expect(filtered).toContain(`${ids[1]},active,true,`)
    expect(
      (await api.get("/api/manage/subscriptions/export.csv", as(made.member, made.community))).status
    ).toBe(403)
  })
})
