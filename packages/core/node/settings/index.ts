/**
 * Roda's own settings, each checked by one entry of `rodaSettingChecks`: `loadRodaEnvironment` runs
 * them all before reading anything and reports every problem together. A program adds its own
 * entries (the HTTP server: its log, telemetry and proxy settings).
 */
import { blobUrlCheck } from "../blobs/blobUrl"
import type { SettingCheck } from "./checks"
import { databaseUrlCheck, dataDirCheck, poolMaxCheck, statementTimeoutCheck } from "./database"
import { jwtSecretCheck, paymentGatewayCheck, sandboxSecretCheck, stripeKeysCheck } from "./secrets"
import {
  corsOriginsCheck,
  feedStatsMaxAgeCheck,
  oauthLimitsCheck,
  portCheck,
  publicBaseUrlCheck,
  rateLimitsCheck,
  smtpUrlCheck
} from "./web"

export const rodaSettingChecks: ReadonlyArray<SettingCheck> = [
  databaseUrlCheck,
  statementTimeoutCheck,
  poolMaxCheck,
  dataDirCheck,
  jwtSecretCheck,
  paymentGatewayCheck,
  sandboxSecretCheck,
  stripeKeysCheck,
  portCheck,
  publicBaseUrlCheck,
  corsOriginsCheck,
  smtpUrlCheck,
  oauthLimitsCheck,
  rateLimitsCheck,
  feedStatsMaxAgeCheck,
  blobUrlCheck
]

export {
  type CheckContext,
  defaultCheckContext,
  type Env,
  isSettingsError,
  problem,
  problemLine,
  requireSettings,
  type SettingCheck,
  type SettingProblem,
  settingProblems,
  SettingsError
} from "./checks"
export { isGateway, PAYMENT_GATEWAYS, type PaymentGatewayName } from "./secrets"
