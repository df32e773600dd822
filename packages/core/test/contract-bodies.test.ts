import { HttpApi } from "@effect/platform"
import { Option, SchemaAST } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RodaApi } from "../src/api/RodaApi"
import { as } from "./support/community"
import { type CourseCommunity, courseCommunity, createCourse, createLesson, createModule } from "./support/courses"
import { expectError } from "./support/envelope"
import { client, PASSWORD, register, type Reply, startRoda } from "./support/harness"

// Issue 10: a request body that names a field the route does not declare answers 400, never a silent 200.

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

let setup: CourseCommunity
beforeAll(async () => {
  setup = await courseCommunity(api, "Corpo")
})
const owner = () => as(setup.owner, setup.community)

/** The `errors` of a 400, as `param: msg (location)`. */
const refused = (reply: Reply) => expectError(reply, 400).errors.map((e: any) => `${e.param}: ${e.msg} (${e.location})`)

/** Payloads that are not JSON documents of ours: a gateway's webhook is verified and parsed by its adapter. */
const rawPayloads = new Set([
  "POST /api/checkout/webhooks/:gateway",
  // OAuth: unknown client metadata and request parameters are ignored (RFC 7591 §2, RFC 6749 §3.1, §3.2)
  "POST /oauth/register",
  "POST /oauth/token",
  "POST /oauth/revoke"
])

describe("unknown body fields", () => {
  it("every JSON payload schema refuses excess properties", () => {
    const lax: Array<string> = []
    let checked = 0
    HttpApi.reflect(RodaApi, {
      onGroup() {},
      onEndpoint({ endpoint }) {
        const payload = endpoint.payloadSchema
        const route = `${endpoint.method} ${endpoint.path}`
        if (Option.isNone(payload) || rawPayloads.has(route)) return
        checked++
        const options = SchemaAST.getParseOptionsAnnotation(payload.value.ast)
        if (!Option.isSome(options) || options.value.onExcessProperty !== "error") lax.push(route)
      }
    })
    expect(checked).toBeGreaterThan(50)
    expect(lax).toEqual([])
  })

  it("answers 400 naming each unknown field of a lesson edit, with the other invalid fields", async () => {
    const module = await createModule(api, setup, (await createCourse(api, setup)).id)
    const lesson = await createLesson(api, setup, module.id)
    const reply = await api.put(`/api/courses/lesson/${lesson.id}`, { title: "X", foo: 1, bar: "b" }, owner())
    expect(refused(reply)).toEqual(["foo: foo is not allowed (body)", "bar: bar is not allowed (body)"])
    expect(reply.body.message).toBe("foo is not allowed")
    const mixed = await api.put(`/api/courses/lesson/${lesson.id}`, { title: "", extra: true }, owner())
    expect(refused(mixed).map((e: string) => e.split(":")[0])).toEqual(expect.arrayContaining(["title", "extra"]))
    // Nothing was applied.
    const detail = await api.get(`/api/courses/${module.courseId}`, owner())
    expect(detail.body.data.modules[0].lessons[0].title).toBe("Aula")
  })

  it("answers 400 for unknown keys inside a nested object (space `access`), with the key path", async () => {
    const reply = await api.post("/api/spaces", {
      sectionId: setup.section.id,
      title: "Espaço",
      module: "courses",
      access: { subscriptionGroupIds: [], foo: ["x"] }
    }, owner())
    expect(refused(reply)).toEqual(["access.foo: access.foo is not allowed (body)"])
    const update = await api.put(`/api/spaces/${setup.space.id}`, { access: { productIds: [], planIds: [] } }, owner())
    expect(refused(update)).toEqual(["access.planIds: access.planIds is not allowed (body)"])
  })

  it("reports only the nested key inside an optional, nullable object (event `address`)", async () => {
    const reply = await api.post("/api/events", {
      spaceId: setup.space.id,
      title: "Encontro",
      type: "in_person",
      startTime: "2030-05-01T19:00:00Z",
      endTime: "2030-05-01T21:00:00Z",
      address: { street: "Rua A", number: "1", city: "Rio", district: "Centro" }
    }, owner())
    expect(refused(reply)).toEqual(["address.district: address.district is not allowed (body)"])
  })

  it("applies to routes without a community too (sign-in)", async () => {
    const user = await register(api)
    const reply = await api.post("/api/auth/login", { email: user.email, password: PASSWORD, remember: true })
    expect(refused(reply)).toEqual(["remember: remember is not allowed (body)"])
  })
})
