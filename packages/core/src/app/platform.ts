import { Layer } from "effect"
import { inProcessSignals } from "../notifications/Signals"
import { Ids } from "../platform/Ids"
import { Jobs } from "../platform/Jobs"
import { Mailer } from "../platform/Mailer"
import { sandboxGateway } from "../platform/PaymentGateway"
import { PublicFetch } from "../platform/PublicFetch"
import { optionsLayer } from "../platform/PublicUrl"
import { RateLimits } from "../platform/RateLimits"
import { Tokens } from "../platform/Tokens"
import { directStatements } from "../sql/directStatements"
import type { RodaConfig } from "./config"
import { missingPlatform, RodaConfigError } from "./validateConfig"

/**
 * The ports every feature may use: database, ids, passwords, tokens, mail, files, jobs, payments,
 * outbound fetches, limits on abuse; the runtime-bound ones come from `config.platform`.
 */
export const platformLayer = (config: RodaConfig) => {
  const platform = config.platform
  if (platform === undefined) throw new RodaConfigError(`Invalid Roda configuration: ${missingPlatform}`)
  // Built once (layers are memoised by reference), whether Options reads or records through it.
  const database = directStatements(platform.database(config.database))
  const base = Layer.mergeAll(
    config.clock === undefined ? Layer.empty : Layer.setClock(config.clock),
    Ids.layer,
    platform.passwords,
    platform.mail,
    platform.certificates,
    platform.publicFetch ?? PublicFetch.web,
    optionsLayer(config.options, config.publicUrl ?? "given", database),
    database
  )
  const gateway = config.paymentGateway ?? sandboxGateway({ webhookSecret: config.options.sandboxWebhookSecret })
  const signals = platform.notificationSignals?.(config.database) ?? inProcessSignals
  return Layer.mergeAll(Tokens.layer, Mailer.layer, Jobs.layer, RateLimits.Default, platform.blobs, gateway, signals)
    .pipe(
      Layer.provideMerge(base)
    )
}
