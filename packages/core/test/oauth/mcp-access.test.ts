import { Effect, Exit } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { CommunityId } from "../../src/domain/Ids"
import { McpAccess } from "../../src/index"
import { newCommunity } from "../support/community"
import { client, register, startRoda } from "../support/harness"
import { query } from "../support/sql"

describe("McpAccess (the contract @roda/mcp checks every request through)", () => {
  const roda = startRoda({ publicBaseUrl: "http://roda.test/" })
  const api = client(roda)
  afterAll(() => roda.dispose())
  const access = <A, E>(use: (service: typeof McpAccess.Service) => Effect.Effect<A, E>) =>
    roda.runtime.runPromise(Effect.exit(Effect.flatMap(McpAccess, use)))

  it("names the MCP resource and its challenges from publicBaseUrl", async () => {
    const exit = await access((mcp) => Effect.succeed(mcp))
    if (!Exit.isSuccess(exit)) throw new Error("no McpAccess")
    expect(exit.value.resource).toBe("http://roda.test/mcp")
    expect(exit.value.challenge).toBe(
      "Bearer resource_metadata=\"http://roda.test/.well-known/oauth-protected-resource/mcp\", scope=\"read write\""
    )
    expect(exit.value.insufficientScope("write")).toBe(
      "Bearer error=\"insufficient_scope\", scope=\"write\", resource_metadata=\"http://roda.test/.well-known/oauth-protected-resource/mcp\""
    )
  })

  it("authenticateLocal: an /api token and a community give the account's own profile and role", async () => {
    const { community, owner, addMember } = await newCommunity(api, "Local")
    const member = await addMember("member", "Maria Membro")
    const stranger = await register(api, "Sara Estranha")
    const ok = await access((mcp) => mcp.authenticateLocal(member.token, community.id))
    expect(Exit.isSuccess(ok) && ok.value).toMatchObject({
      connectionId: null,
      scopes: ["read", "write"],
      member: { communityId: community.id, profileId: member.profileId, role: "member", account: { id: member.id } }
    })
    const asOwner = await access((mcp) => mcp.authenticateLocal(owner.token, community.id.toUpperCase()))
    expect(Exit.isSuccess(asOwner) && asOwner.value.member.role).toBe("owner")
    const failure = async (token: string, communityId: string) => {
      const exit = await access((mcp) => mcp.authenticateLocal(token, communityId))
      if (Exit.isSuccess(exit) || exit.cause._tag !== "Fail") throw new Error("expected a failure")
      return { status: exit.cause.error.status, message: exit.cause.error.text.pt }
    }
    expect(await failure("", community.id)).toEqual({ status: 401, message: "Authentication token is required" })
    expect(await failure("not-a-jwt", community.id)).toEqual({ status: 401, message: "Invalid or expired token" })
    expect(await failure(stranger.token, community.id)).toEqual({
      status: 403,
      message: "Você não é membro desta comunidade."
    })
    expect((await failure(member.token, "nope")).status).toBe(400)
  })

  it("authenticate refuses an /api login token (401 McpUnauthorized)", async () => {
    const user = await register(api, "Tiago Token")
    const exit = await access((mcp) => mcp.authenticate(user.token))
    expect(Exit.isFailure(exit) && exit.cause._tag === "Fail" && exit.cause.error._tag).toBe("McpUnauthorized")
    const garbage = await access((mcp) => mcp.authenticate("roda_mcp_at_unknown"))
    expect(Exit.isFailure(garbage)).toBe(true)
  })

  it("recordCall writes the audit with secrets redacted; it never fails the call", async () => {
    const { community, owner } = await newCommunity(api, "Audit")
    const caller = await access((mcp) => mcp.authenticateLocal(owner.token, community.id))
    if (!Exit.isSuccess(caller)) throw new Error("no caller")
    await access((mcp) =>
      mcp.recordCall({
        caller: caller.value,
        tool: "create_coupon",
        arguments: {
          code: "BLACK",
          password: "hunter2",
          nested: { cardToken: "tok_visa", api_key: "k", list: [{ Authorization: "Bearer x" }] },
          clientSecret: "s"
        },
        outcome: "error",
        error: "Função necessária: owner ou admin. Sua função: member",
        durationMs: 12.4
      })
    )
    const rows = await query<{ tool: string; arguments: any; outcome: string; durationMs: number; connectionId: null }>(
      roda,
      (sql) =>
        sql`SELECT tool, arguments::text AS arguments, outcome, duration_ms, connection_id FROM mcp_audit
        WHERE community_id = ${community.id}`
    )
    expect(rows.map((row) => ({ ...row, arguments: JSON.parse(row.arguments) }))).toEqual([{
      tool: "create_coupon",
      outcome: "error",
      durationMs: 12,
      connectionId: null,
      arguments: {
        code: "BLACK",
        password: "[redacted]",
        nested: { cardToken: "[redacted]", api_key: "[redacted]", list: [{ Authorization: "[redacted]" }] },
        clientSecret: "[redacted]"
      }
    }])
    // a caller of a community that does not exist: the insert fails, the call does not
    const broken = {
      ...caller.value,
      member: { ...caller.value.member, communityId: CommunityId.make(crypto.randomUUID()) }
    }
    const exit = await access((mcp) =>
      mcp.recordCall({ caller: broken, tool: "x", arguments: {}, outcome: "ok", durationMs: 1 })
    )
    expect(Exit.isSuccess(exit)).toBe(true)
  })
})
