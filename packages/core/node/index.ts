/**
 * `@roda/core/node`: everything `@roda/core` exports, with `makeRoda` and `servicesLayer` running
 * on the Node platform unless `config.platform` names another, and the Node-only pieces (the
 * environment reader, the database layer, scrypt, the filesystem BlobStore, the resolver-checked
 * PublicFetch).
 */
import { makeRoda as makeRodaOn, servicesLayer as servicesLayerOn } from "../src/app/makeRoda"
import type { Roda, RodaConfig } from "../src/app/makeRoda"
import { nodePlatform } from "./platform"

export { makeInFlight } from "../src/app/inFlight"
export type { InFlight } from "../src/app/inFlight"
export * from "../src/index"
export { blobStoreAt, blobStoreFromOptions, filesystemBlobStore, s3BlobStore } from "./blobs"
export { blobLocationFromEnvironment } from "./blobs/blobUrl"
export { nodeCertificateRenderer } from "./certificates/renderer"
export { DataDirInUse, lockDataDir } from "./dataDirLock"
export { loadRodaEnvironment, loadRodaEnvironmentWith } from "./environment"
export type { EnvironmentOptions, PaymentGatewayName, RodaEnvironment } from "./environment"
export { nodemailerTransport } from "./mail"
export { scryptPasswords, scryptPasswordsAt } from "./passwords"
export { nodePlatform } from "./platform"
export { nodePublicFetch } from "./publicFetch"
export {
  type CheckContext,
  isSettingsError,
  problem,
  problemLine,
  rodaSettingChecks,
  type SettingCheck,
  type SettingProblem,
  settingProblems,
  SettingsError
} from "./settings/index"
export { DatabaseLive, holdDataDir, poolOptions, postgresClient } from "./sql/Database"
export { ABANDON_AFTER_MS, GuardedPool } from "./sql/guardedPool"

const onNode = (config: RodaConfig): RodaConfig => config.platform ? config : { ...config, platform: nodePlatform }

/** `makeRoda` of `@roda/core` on the Node platform (unless `config.platform` is given). */
export const makeRoda = (config: RodaConfig): Roda => makeRodaOn(onNode(config))

/** `servicesLayer` of `@roda/core` on the Node platform (unless `config.platform` is given). */
export const servicesLayer = (config: RodaConfig) => servicesLayerOn(onNode(config))
