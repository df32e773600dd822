import { Layer } from "effect"
import { Ids } from "../platform/Ids"
import { Jobs } from "../platform/Jobs"
import { Mailer } from "../platform/Mailer"
import { Options } from "../platform/Options"
import { sandboxGateway } from "../platform/PaymentGateway"
import { PublicFetch } from "../platform/PublicFetch"
import { Tokens } from "../platform/Tokens"
import { directStatements } from "../sql/directStatements"
import type { RodaConfig } from "./config"
import { missingPlatform, RodaConfigError } from "./validateConfig"

/**
 * The ports every feature may use: database, ids, passwords, tokens, mail, files, jobs, payments,
 * outbound fetches; the runtime-bound ones come from `config.platform`.
 */
export const platformLayer = (config: RodaConfig) => {
  const platform = config.platform
  if (platform === undefined) throw new RodaConfigError(`Invalid Roda configuration: ${missingPlatform}`)
  const base = Layer.mergeAll(
    config.clock === undefined ? Layer.empty : Layer.setClock(config.clock),
    Ids.layer,
    platform.passwords,
    platform.mail,
    platform.certificates,
    platform.publicFetch ?? PublicFetch.web,
    Layer.succeed(Options, config.options),
    directStatements(platform.database(config.database))
  )
  const gateway = config.paymentGateway ?? sandboxGateway({ webhookSecret: config.options.sandboxWebhookSecret })
  return Layer.mergeAll(Tokens.layer, Mailer.layer, Jobs.layer, platform.blobs, gateway).pipe(Layer.provideMerge(base))
}
