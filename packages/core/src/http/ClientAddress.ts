import { HttpServerRequest } from "@effect/platform"
import { Context, Effect, Option } from "effect"

/** The client's address, when the adapter knows it (limits sign-in attempts and OAuth registrations). */
export class ClientAddress extends Context.Reference<ClientAddress>()("@roda/core/ClientAddress", {
  defaultValue: (): string | undefined => undefined
}) {}

/** The address the adapter gave, else the socket's (Node serves requests without a web round trip). */
export const clientAddress = Effect.flatMap(
  ClientAddress,
  (given) =>
    given !== undefined
      ? Effect.succeed(given)
      : Effect.map(HttpServerRequest.HttpServerRequest, (request) => Option.getOrUndefined(request.remoteAddress))
)
