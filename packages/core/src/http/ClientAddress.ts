import { HttpServerRequest } from "@effect/platform"
import { Context, Effect, Option } from "effect"

/** The address of the client, when the adapter knows it (used to throttle sign-in attempts). */
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
