import { beforeAll, describe, expect, it } from "vitest"
import {
  createCommunity,
  errorLines,
  jsonOf,
  makeWorld,
  operatorAccount,
  PASSWORD,
  register,
  SPAWNS,
  uniqueEmail,
  type User
} from "./support"

/**
 * Issue 56 item 4: `roda admin accounts erase` erases an account on the member's written request,
 * without the password: recorded in the operator audit log with the request's reference, refused
 * (exit 1, naming them) while the account owns a community with other members, and a second run
 * changes nothing and succeeds.
 */
const OPERATOR = uniqueEmail("ops")
const world = await makeWorld([OPERATOR])
let owner: User
let member: User
let community: { id: string; profileId: string; name: string }
let memberProfile: string

beforeAll(async () => {
  await world.withRoda(async (api) => {
    await operatorAccount(api, OPERATOR)
    owner = await register(api, uniqueEmail("owner"), "Olga Owner")
    member = await register(api, uniqueEmail("member"), "Eva Esteves")
    community = await createCommunity(api, owner, "Comunidade da Olga")
    const invited = await api.post("/api/profiles/create", { email: member.email }, {
      token: owner.token,
      community: community.id
    })
    memberProfile = invited.id
    await api.post(`/api/profiles/${invited.id}/accept`, undefined, { token: member.token, community: community.id })
    await api.post("/api/status", { body: "Olá, sou a Eva" }, { token: member.token, community: community.id })
  })
})

const erase = (target: ReadonlyArray<string>, ...more: ReadonlyArray<string>) =>
  world.cli([
    "admin",
    "accounts",
    "erase",
    ...target,
    "--reason",
    "Pedido por e-mail de 2026-12-01",
    "--as",
    OPERATOR,
    ...more
  ])

describe("roda admin accounts erase", SPAWNS, () => {
  it("refuses the owner of a community with other members, naming it (exit 1), and changes nothing", async () => {
    const refused = await erase(["--email", owner.email])
    expect(refused.code).toBe(1)
    expect(errorLines(refused).join("\n")).toContain("Comunidade da Olga")
    await world.withRoda(async (api) => {
      const [row] = await api.sql<{ erasedAt: Date | null }>((sql) =>
        sql`SELECT erased_at FROM accounts WHERE id = ${owner.id}`
      )
      expect(row!.erasedAt).toBeNull()
    })
  })

  it("erases the member (no password), audited with the request's reference; a second run changes nothing", async () => {
    const erased = jsonOf(await erase(["--email", member.email], "--delete-content", "--json"))
    expect(erased).toMatchObject({
      id: member.id,
      deleteContent: true,
      alreadyErased: false,
      profiles: 1,
      erased: true
    })

    const snapshot = () =>
      world.withRoda(async (api) => {
        const rows = await api.sql<{ row: unknown }>((sql) =>
          sql`SELECT to_jsonb(a) AS row FROM accounts a WHERE id = ${member.id}
            UNION ALL SELECT to_jsonb(p) FROM profiles p WHERE account_id = ${member.id}
            UNION ALL SELECT to_jsonb(s) FROM status_posts s WHERE author_profile_id = ${memberProfile}`
        )
        return rows.map((r) => r.row)
      })
    const after = await snapshot()
    expect(after[0]).toMatchObject({ email: `erased+${member.id}@invalid`, fullName: "", passwordHash: null })
    expect(after[1]).toMatchObject({ fullName: "Ex-membro" })
    expect((after[2] as { deletedAt: string | null }).deletedAt).not.toBeNull()
    await world.withRoda(async (api) => {
      await expect(api.post("/api/auth/login", { email: member.email, password: PASSWORD })).rejects.toThrow(/401/)
      const audit = await api.sql<{ action: string; actorEmail: string; details: any }>((sql) =>
        sql`SELECT action, actor_email, details FROM operator_audit WHERE target_id = ${member.id} ORDER BY created_at`
      )
      expect(audit).toEqual([{
        action: "account.erase",
        actorEmail: OPERATOR,
        details: { reason: "Pedido por e-mail de 2026-12-01", deleteContent: true, profiles: 1, alreadyErased: false }
      }])
    })

    // again by e-mail: the address is gone, nothing to erase (exit 0)
    const byEmail = await erase(["--email", member.email])
    expect(byEmail.code).toBe(0)
    expect(byEmail.stdout).toContain("nothing to erase")
    // again by id: erased already, nothing changes (audited as such)
    const byId = jsonOf(await erase(["--id", member.id], "--json"))
    expect(byId).toMatchObject({ id: member.id, alreadyErased: true, erased: true })
    expect(await snapshot()).toEqual(after)
  })

  it("needs exactly one of --email and --id, an operator, and a reason", async () => {
    const neither = await world.cli(["admin", "accounts", "erase", "--reason", "x", "--as", OPERATOR])
    expect(neither.code).toBe(2)
    expect(neither.stderr).toContain("--email")
    const notOperator = await world.cli([
      "admin",
      "accounts",
      "erase",
      "--email",
      owner.email,
      "--reason",
      "x",
      "--as",
      owner.email
    ])
    expect(notOperator.code).toBe(1)
    expect(notOperator.stderr).toContain("SuperAdmin")
  })
})
