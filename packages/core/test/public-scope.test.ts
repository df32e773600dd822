import { HttpServerRequest } from "@effect/platform"
import { Effect, Exit, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PublicScopeLive } from "../src/app/middleware/live"
import type { AppError } from "../src/domain/AppError"
import type { Visitor } from "../src/domain/Caller"
import { PublicScope } from "../src/http/Security"
import { client, makeCommunity, register, startRoda } from "./support/harness"

/** PublicScope has no route of its own in this issue; it is exercised directly on a request. */
const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

const visit = (headers: Record<string, string>) =>
  roda.runtime.runPromiseExit(
    // The middleware only reads the request; the router's other services are not needed here.
    Effect.flatMap(PublicScope, (middleware) =>
      middleware as Effect.Effect<Visitor, AppError, HttpServerRequest.HttpServerRequest>).pipe(
        Effect.provide(PublicScopeLive),
        Effect.provideService(
          HttpServerRequest.HttpServerRequest,
          HttpServerRequest.fromWeb(new Request("http://roda.test/api/anything", { headers }))
        )
      )
  )

const visitor = async (headers: Record<string, string>): Promise<Visitor> => {
  const exit = await visit(headers)
  if (Exit.isFailure(exit)) throw new Error(`expected success, got ${JSON.stringify(exit.cause)}`)
  return exit.value
}

const failure = async (headers: Record<string, string>) => {
  const exit = await visit(headers)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  return error as { status: number; text: { pt: string } }
}

let setup: Awaited<ReturnType<typeof makeCommunity>>
beforeAll(async () => {
  setup = await makeCommunity(api)
})

describe("PublicScope (token optional, X-CommunityId required)", () => {
  it("lets an anonymous visitor in, with no account or membership", async () => {
    const result = await visitor({ "x-communityid": setup.community.id })
    expect(result.communityId).toBe(setup.community.id)
    expect(Option.isNone(result.account)).toBe(true)
    expect(Option.isNone(result.member)).toBe(true)
  })

  it("recognises a member from the token", async () => {
    const result = await visitor({ "x-communityid": setup.community.id, authorization: `Bearer ${setup.owner.token}` })
    expect(Option.getOrThrow(result.member).role).toBe("owner")
    expect(Option.getOrThrow(result.account).id).toBe(setup.owner.id)
  })

  it("knows an account that is not a member, without membership", async () => {
    const stranger = await register(api, "Sara Stranger")
    const result = await visitor({ "x-communityid": setup.community.id, authorization: `Bearer ${stranger.token}` })
    expect(Option.getOrThrow(result.account).id).toBe(stranger.id)
    expect(Option.isNone(result.member)).toBe(true)
  })

  it("still requires the community header", async () => {
    const error = await failure({})
    expect(error.status).toBe(400)
    expect(error.text.pt).toBe("Send the community in the X-CommunityId header.")
  })

  it("refuses an invalid token instead of ignoring it", async () => {
    const error = await failure({ "x-communityid": setup.community.id, authorization: "Bearer not-a-jwt" })
    expect(error.status).toBe(401)
    expect(error.text.pt).toBe("Invalid or expired token")
  })

  it("applies X-ProfileId rules to members", async () => {
    const member = await setup.addMember("member")
    const error = await failure({
      "x-communityid": setup.community.id,
      authorization: `Bearer ${member.token}`,
      "x-profileid": setup.owner.profileId
    })
    expect(error.status).toBe(403)
    expect(error.text.pt).toBe("Permissões insuficientes para usar X-ProfileId.")
  })
})
