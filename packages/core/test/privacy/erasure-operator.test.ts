import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Erasure, Identity } from "../../src/index"
import { activeTemplate, type CertificateCommunity, certificateCommunity, issueAndWait } from "../certificates/support"
import { expectError, expectOk } from "../support/envelope"
import { client, PLATFORM_ADMIN, startRoda } from "../support/harness"
import { platformAdmin } from "../support/selling"
import { query } from "../support/sql"

/**
 * Issue 56 item 4: the operator's erasure on a written request (the service `roda accounts erase`
 * runs): no password, audited, idempotent; certificates keep their code under the former-member
 * name, their files (which show the name) removed by a job; what the steps keep is in the OpenAPI
 * description of `DELETE /api/account`.
 */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const run = <A, E>(effect: Effect.Effect<A, E, Erasure | Identity>) =>
  roda.runtime.runPromise(Effect.either(effect as Effect.Effect<A, E, never>))

const operator = Effect.flatMap(Identity, (identity) => identity.findByEmail(PLATFORM_ADMIN)).pipe(
  Effect.map(Option.getOrThrow)
)

const eraseAs = (accountId: string, input = { deleteContent: false, reason: "Pedido por e-mail #123" }) =>
  run(
    Effect.flatMap(operator, (actor) =>
      Effect.flatMap(Erasure, (erasure) => erasure.eraseAsOperator(actor, accountId as never, input)))
  )

let setup: CertificateCommunity
let certificate: { id: string; code: string }
beforeAll(async () => {
  await platformAdmin(api)
  setup = await certificateCommunity(api, "Apagar")
  const template = await activeTemplate(api, setup)
  const { certificates } = await issueAndWait(api, setup, template.id, [setup.ana.profileId])
  certificate = certificates[0]
}, 120_000)

const snapshot = () =>
  query(roda, (sql) =>
    sql`SELECT 'account' AS what, to_jsonb(a) AS row FROM accounts a WHERE id = ${setup.ana.id}
      UNION ALL SELECT 'profile', to_jsonb(p) FROM profiles p WHERE account_id = ${setup.ana.id}
      UNION ALL SELECT 'certificate', to_jsonb(c) FROM certificates c WHERE account_id = ${setup.ana.id}
      ORDER BY 1`)

describe("an operator's erasure (roda accounts erase)", () => {
  it("erases without a password, audited; certificates stay verifiable under the former-member name", async () => {
    const [before] = await query<{ pdfKey: string }>(
      roda,
      (sql) => sql`SELECT pdf_key FROM certificates WHERE id = ${certificate.id}`
    )
    expect(before!.pdfKey).not.toBeNull()
    const erased = await run(
      Effect.flatMap(
        operator,
        (actor) =>
          Effect.flatMap(
            Erasure,
            (erasure) =>
              erasure.eraseAsOperator(actor, setup.ana.id as never, { deleteContent: true, reason: "Pedido #123" })
          )
      )
    )
    expect(erased).toMatchObject({
      _tag: "Right",
      right: { id: setup.ana.id, deleteContent: true, alreadyErased: false, profiles: 1 }
    })
    expectError(await api.get("/api/auth/me", { token: setup.ana.token }), 401)
    // the code still verifies, under the former-member name; the e-mail copy is gone
    expect(expectOk(await api.get(`/api/certificates/verify/${certificate.code}`))).toMatchObject({
      code: certificate.code,
      valid: true,
      recipientName: "Ex-membro"
    })
    const [row] = await query<{ recipientEmail: string; pdfKey: string | null }>(
      roda,
      (sql) => sql`SELECT recipient_email, pdf_key FROM certificates WHERE id = ${certificate.id}`
    )
    expect(row).toEqual({ recipientEmail: "", pdfKey: null })
    // the file (it shows the name) is removed by the job written with the erasure
    const files = async () =>
      (await query<{ n: number }>(
        roda,
        (sql) => sql`SELECT count(*)::int AS n FROM blobs WHERE key = ${before!.pdfKey}`
      ))[0]!
        .n
    for (let i = 0; i < 200 && (await files()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50))
    expect(await files()).toBe(0)
    // the operator audit log has the request's reference
    const [entry] = await query<{ action: string; targetId: string; details: any; actorEmail: string }>(
      roda,
      (sql) =>
        sql`SELECT action, target_id, details, actor_email FROM operator_audit
        WHERE target_id = ${setup.ana.id} ORDER BY created_at DESC LIMIT 1`
    )
    expect(entry).toMatchObject({
      action: "account.erase",
      actorEmail: PLATFORM_ADMIN,
      details: { reason: "Pedido #123", deleteContent: true, profiles: 1, alreadyErased: false }
    })
  })

  it("a second run changes nothing and succeeds (audited again, as already erased)", async () => {
    const before = await snapshot()
    const again = await eraseAs(setup.ana.id)
    expect(again).toMatchObject({ _tag: "Right", right: { alreadyErased: true } })
    expect(await snapshot()).toEqual(before)
    const audits = await query<{ details: any }>(
      roda,
      (sql) => sql`SELECT details FROM operator_audit WHERE target_id = ${setup.ana.id} ORDER BY created_at`
    )
    expect(audits.map((a) => a.details.alreadyErased)).toEqual([false, true])
  })

  it("refuses the owner of a community with members (409 naming it), an unknown account (404), a non-operator (403)", async () => {
    const owner = await eraseAs(setup.ownerUser.id)
    expect(owner._tag).toBe("Left")
    if (owner._tag === "Left") {
      expect(owner.left).toMatchObject({ status: 409, code: "owned_communities" })
      expect((owner.left as any).text.pt).toContain((setup.community as unknown as { name: string }).name)
    }
    expect(expectOk(await api.get("/api/auth/me", { token: setup.ownerUser.token })).fullName).toBe("Olga Owner")
    const unknown = await eraseAs("00000000-0000-7000-8000-000000000000")
    expect(unknown).toMatchObject({ _tag: "Left", left: { status: 404 } })
    const notOperator = await run(
      Effect.flatMap(Identity, (identity) => identity.findAccount(setup.bruno.id)).pipe(
        Effect.map(Option.getOrThrow),
        Effect.flatMap((actor) =>
          Effect.flatMap(
            Erasure,
            (erasure) =>
              erasure.eraseAsOperator(actor, setup.moderator.id as never, { deleteContent: false, reason: "x" })
          )
        )
      )
    )
    expect(notOperator).toMatchObject({ _tag: "Left", left: { status: 403 } })
  })

  it("the OpenAPI description of DELETE /api/account lists what every step keeps", async () => {
    const document = await (await roda.handler(new Request("http://roda.test/api/openapi.json"))).json() as any
    const description: string = document.paths["/api/account"].delete.description
    const keeps = await roda.runtime.runPromise(Effect.map(Erasure, (erasure) => erasure.keeps))
    expect(keeps.map((k) => k.feature)).toEqual(
      expect.arrayContaining(["commerce/checkout", "money/ledger", "certificates", "identity"])
    )
    for (const { feature, keeps: text } of keeps) expect(description).toContain(`${feature}: ${text}`)
    expect(description).toContain("CTN arts. 173 and 174")
  })
})
