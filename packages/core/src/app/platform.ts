import { Layer } from "effect"
import { Ids } from "../platform/Ids"
import { Jobs } from "../platform/Jobs"
import { Mailer } from "../platform/Mailer"
import { Options } from "../platform/Options"
import { Passwords } from "../platform/Passwords"
import { sandboxGateway } from "../platform/PaymentGateway"
import { Tokens } from "../platform/Tokens"
import { DatabaseLive } from "../sql/Database"
import type { RodaConfig } from "./config"

/** The ports every feature may use: database, ids, passwords, tokens, mail, jobs, payments. */
export const platformLayer = (config: RodaConfig) => {
  const base = Layer.mergeAll(
    config.clock === undefined ? Layer.empty : Layer.setClock(config.clock),
    Ids.layer,
    Passwords.layer,
    Layer.succeed(Options, config.options),
    DatabaseLive(config.database)
  )
  const gateway = config.paymentGateway ?? sandboxGateway({ webhookSecret: config.options.sandboxWebhookSecret })
  return Layer.mergeAll(Tokens.layer, Mailer.layer, Jobs.layer, gateway).pipe(Layer.provideMerge(base))
}
