import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiError,
  HttpApiGroup,
  HttpApiMiddleware,
  HttpApiSchema,
  HttpApiSecurity,
  HttpApp,
  HttpRouter,
  HttpServer,
  HttpServerRequest,
  HttpServerResponse
} from "@effect/platform"
import { Context, Effect, Layer, Redacted, Schema } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { apiGroup } from "../../src/http/engine/apiGroup"
import { apiHttpApp } from "../../src/http/engine/dispatch"

// A small API using every part of a group that Roda's `apiGroup` reimplements, served once by the
// platform's `HttpApiBuilder.group` and once by `apiGroup`: both must answer every request alike.
// Both are also served through Roda's dispatcher (`apiHttpApp`), where `apiGroup`'s routes take their
// direct form (`http/directRoute.ts`): those two must answer alike too.

class User extends Context.Tag("test/User")<User, string>() {}
class Greeting extends Context.Tag("test/Greeting")<Greeting, string>() {}

class Authed extends HttpApiMiddleware.Tag<Authed>()("test/Authed", {
  provides: User,
  failure: HttpApiError.Unauthorized,
  security: { bearer: HttpApiSecurity.bearer }
}) {}
/** A bearer check that reads the header itself (as Roda's do): it declares no credential parameter. */
class HeaderAuthed extends HttpApiMiddleware.Tag<HeaderAuthed>()("test/HeaderAuthed", {
  provides: User,
  failure: HttpApiError.Unauthorized,
  security: { bearer: HttpApiSecurity.bearer }
}) {}
class GroupStep extends HttpApiMiddleware.Tag<GroupStep>()("test/GroupStep") {}
class MaybeUser extends HttpApiMiddleware.Tag<MaybeUser>()("test/MaybeUser", { provides: User, optional: true }) {}

const Thing = Schema.Struct({ id: Schema.Number, tags: Schema.Array(Schema.String), by: Schema.String })

class Things extends HttpApiGroup.make("things")
  .add(
    HttpApiEndpoint.get("one", "/things/:id")
      .setPath(Schema.Struct({ id: Schema.NumberFromString }))
      .setUrlParams(Schema.Struct({ tags: Schema.optional(Schema.Array(Schema.String)) }))
      .addSuccess(Thing)
      .middleware(Authed)
  )
  .add(
    HttpApiEndpoint.post("create", "/things")
      .setPayload(Schema.Struct({ name: Schema.NonEmptyString }))
      .addSuccess(Schema.Struct({ name: Schema.String, greeting: Schema.String }), { status: 201 })
      .middleware(Authed)
  )
  .add(HttpApiEndpoint.get("text", "/text").addSuccess(HttpApiSchema.Text()))
  .add(HttpApiEndpoint.del("remove", "/things/:id").setPath(Schema.Struct({ id: Schema.NumberFromString })))
  .add(HttpApiEndpoint.get("raw", "/raw"))
  .add(HttpApiEndpoint.get("maybe", "/maybe").addSuccess(Schema.String).middleware(MaybeUser))
  .add(HttpApiEndpoint.get("header", "/header").addSuccess(Schema.String).middleware(HeaderAuthed))
  .add(HttpApiEndpoint.get("trail", "/trail").addSuccess(Schema.Array(Schema.String)).middleware(Authed))
  .middleware(GroupStep)
{}

class Api extends HttpApi.make("group-parity").add(Things) {}

type GroupBuilder = typeof HttpApiBuilder.group

type Dispatcher = "platform" | "roda"

/** Roda's dispatcher leaves failures to the envelope; here each becomes its tag, alike for both groups. */
const failureAsTag = <R>(app: HttpApp.Default<unknown, R>) =>
  Effect.catchAll(
    app,
    (error) =>
      Effect.succeed(HttpServerResponse.unsafeJson({ failed: (error as { _tag?: string })._tag }, { status: 418 }))
  )

/** Whether the first middleware to run saw the route's context, request by request. */
const sawRoute = { platform: [] as Array<boolean>, roda: [] as Array<boolean> }

const serve = (group: GroupBuilder, dispatcher: Dispatcher = "platform") => {
  const trail: Array<string> = []
  const ThingsLive = group(Api, "things", (handlers) =>
    handlers
      .handle(
        "one",
        ({ path, urlParams }) => Effect.map(User, (by) => ({ id: path.id, tags: urlParams.tags ?? [], by }))
      )
      .handle("create", ({ payload }) => Effect.map(Greeting, (greeting) => ({ name: payload.name, greeting })))
      .handle("text", () => Effect.succeed("plain words"))
      .handle("remove", () => Effect.void)
      .handleRaw("raw", ({ request }) => Effect.succeed(HttpServerResponse.text(`raw ${request.method}`)))
      .handle(
        "maybe",
        () => Effect.map(Effect.serviceOption(User), (user) => user._tag === "Some" ? user.value : "nobody")
      )
      .handle("header", () => User)
      .handle("trail", () => Effect.sync(() => trail.splice(0)))).pipe(Layer.provide(Layer.succeed(Greeting, "olá")))
  const Middleware = Layer.mergeAll(
    Layer.succeed(Authed, {
      bearer: (token) =>
        Effect.flatMap(Effect.serviceOption(HttpRouter.RouteContext), (route) => {
          sawRoute[dispatcher].push(route._tag === "Some")
          return Redacted.value(token) === "good"
            ? Effect.sync(() => {
              trail.push("endpoint")
              return "ana"
            })
            : Effect.fail(new HttpApiError.Unauthorized())
        })
    }),
    Layer.succeed(HeaderAuthed, {
      bearer: () =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          request.headers.authorization === "Bearer good"
            ? Effect.succeed("bia")
            : Effect.fail(new HttpApiError.Unauthorized()))
    }),
    Layer.succeed(
      GroupStep,
      Effect.map(Effect.serviceOption(User), (user) => {
        trail.push(user._tag === "Some" ? `group after ${user.value}` : "group")
      })
    ),
    Layer.succeed(MaybeUser, Effect.fail(new HttpApiError.Unauthorized()) as unknown as Effect.Effect<string>)
  )
  const apiLive = Layer.mergeAll(
    HttpApiBuilder.api(Api).pipe(Layer.provide(ThingsLive), Layer.provide(Middleware)),
    HttpServer.layerContext
  )
  const { dispose, handler } = dispatcher === "platform"
    ? HttpApiBuilder.toWebHandler(apiLive)
    : HttpApp.toWebHandlerLayerWith(
      Layer.mergeAll(apiLive, HttpApiBuilder.Router.Live, HttpApiBuilder.Middleware.layer),
      { toHandler: (runtime) => Effect.map(Effect.provide(apiHttpApp, runtime), failureAsTag) }
    )
  afterAll(() => dispose())
  return async (method: string, path: string, init: { token?: string; body?: string } = {}) => {
    const headers: Record<string, string> = {}
    if (init.token) headers.authorization = `Bearer ${init.token}`
    if (init.body !== undefined) headers["content-type"] = "application/json"
    const request = new Request(
      `http://roda.test${path}`,
      init.body === undefined ? { method, headers } : { method, headers, body: init.body }
    )
    const response = await handler(request)
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      body: await response.text()
    }
  }
}

const platform = serve(HttpApiBuilder.group)
const roda = serve(apiGroup)
const platformDispatched = serve(HttpApiBuilder.group, "roda")
const rodaDispatched = serve(apiGroup, "roda")

const requests: ReadonlyArray<[string, string, { token?: string; body?: string }?]> = [
  ["GET", "/things/7?tags=a&tags=b", { token: "good" }],
  ["GET", "/things/7?tags=one", { token: "good" }],
  ["GET", "/things/7", { token: "bad" }],
  ["GET", "/things/7", {}],
  ["GET", "/things/seven", { token: "good" }],
  ["POST", "/things", { token: "good", body: JSON.stringify({ name: "Mesa" }) }],
  ["POST", "/things", { token: "good", body: JSON.stringify({ name: "" }) }],
  ["POST", "/things", { token: "good", body: JSON.stringify({ other: 1 }) }],
  ["GET", "/text"],
  ["DELETE", "/things/3"],
  ["DELETE", "/things/x"],
  ["GET", "/raw"],
  ["GET", "/maybe"],
  ["GET", "/header", { token: "good" }],
  ["GET", "/header", { token: "bad" }],
  ["GET", "/header", {}],
  ["GET", "/trail", { token: "good" }]
]

describe("apiGroup answers as HttpApiBuilder.group", () => {
  for (const [method, path, init] of requests) {
    it(`${method} ${path} ${init?.token ?? ""}${init?.body ?? ""}`, async () => {
      expect(await roda(method, path, init)).toEqual(await platform(method, path, init))
    })
  }

  it("decodes the path and a repeated query parameter, and gives the middleware's service", async () => {
    expect(await roda("GET", "/things/7?tags=a&tags=b", { token: "good" })).toMatchObject({
      status: 200,
      body: JSON.stringify({ id: 7, tags: ["a", "b"], by: "ana" })
    })
    expect(JSON.parse((await roda("GET", "/things/7?tags=one", { token: "good" })).body).tags).toEqual(["one"])
  })

  it("encodes by the success schema: its status, its encoding, and no body for void", async () => {
    expect(await roda("POST", "/things", { token: "good", body: JSON.stringify({ name: "Mesa" }) })).toEqual({
      status: 201,
      contentType: "application/json",
      body: JSON.stringify({ name: "Mesa", greeting: "olá" })
    })
    expect(await roda("GET", "/text")).toMatchObject({ status: 200, contentType: "text/plain", body: "plain words" })
    expect(await roda("DELETE", "/things/3")).toMatchObject({ status: 204, body: "" })
  })

  it("refuses a bad path or payload with the decode error, and a bad token before the handler", async () => {
    expect((await roda("GET", "/things/seven", { token: "good" })).status).toBe(400)
    expect((await roda("POST", "/things", { token: "good", body: JSON.stringify({ name: "" }) })).status).toBe(400)
    expect((await roda("GET", "/things/7", { token: "bad" })).status).toBe(401)
  })

  it("runs the endpoint's middleware before the group's, as the platform does", async () => {
    await roda("GET", "/trail", { token: "good" }) // empties what earlier requests left
    expect(JSON.parse((await roda("GET", "/trail", { token: "good" })).body)).toEqual(["endpoint", "group after ana"])
  })

  it("runs a bearer check that takes no credential, which reads the request itself", async () => {
    expect(await roda("GET", "/header", { token: "good" })).toMatchObject({ status: 200, body: JSON.stringify("bia") })
    expect((await roda("GET", "/header", { token: "bad" })).status).toBe(401)
  })

  it("goes on without an optional middleware's service when it fails", async () => {
    expect(await roda("GET", "/maybe")).toMatchObject({ status: 200, body: JSON.stringify("nobody") })
  })
})

describe("apiGroup through Roda's dispatcher answers as HttpApiBuilder.group through it", () => {
  for (const [method, path, init] of requests) {
    it(`${method} ${path} ${init?.token ?? ""}${init?.body ?? ""}`, async () => {
      expect(await rodaDispatched(method, path, init)).toEqual(await platformDispatched(method, path, init))
    })
  }

  it("gives a middleware the service an earlier one provided, and the handler both in one change", async () => {
    await rodaDispatched("GET", "/trail", { token: "good" })
    expect(JSON.parse((await rodaDispatched("GET", "/trail", { token: "good" })).body)).toEqual([
      "endpoint",
      "group after ana"
    ])
    expect(await rodaDispatched("GET", "/things/7?tags=x", { token: "good" })).toMatchObject({
      status: 200,
      body: JSON.stringify({ id: 7, tags: ["x"], by: "ana" })
    })
  })

  it("takes the direct form: the route's context is set with the first middleware's service, not before", async () => {
    sawRoute.roda.length = 0
    sawRoute.platform.length = 0
    await rodaDispatched("GET", "/trail", { token: "good" })
    await roda("GET", "/trail", { token: "good" })
    expect(sawRoute.roda).toEqual([false])
    expect(sawRoute.platform).toEqual([true])
  })
})
