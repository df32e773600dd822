import { Context } from "effect"

/** The address of the client, when the adapter knows it (used to throttle sign-in attempts). */
export class ClientAddress extends Context.Reference<ClientAddress>()("@roda/core/ClientAddress", {
  defaultValue: (): string | undefined => undefined
}) {}
