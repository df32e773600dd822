import {
  type Account,
  AppError,
  CommunityId,
  Identity,
  type Member,
  Memberships,
  Messages,
  PublicUrlUnknown,
  type RodaConfig,
  servicesLayer,
  stripeGateway
} from "@roda/core/node"
import { loadConfigWith } from "@roda/http-node"
import { Effect, type Layer, Option } from "effect"
import { failure } from "./errors"
import { cliMessages } from "./messages"

/**
 * The server's environment as a command reads it: every problem reported at once, DATABASE_URL
 * connected to first, and a DATA_DIR that does not exist refused (only the server's first start makes
 * one: a typo must not open a new, empty database).
 */
export const commandConfig = loadConfigWith({ connect: true, missingDataDir: "refuse" })

/** Everything core offers in-process: database, ports and every feature's use cases. */
export type Services = Layer.Layer.Success<ReturnType<typeof servicesLayer>>

export interface SessionOptions {
  /**
   * Run durable jobs (certificate generation, e-mail) in this process while the command runs. Off by
   * default: a command does its own work and leaves the rest to the server.
   */
  readonly runJobs?: boolean
  /**
   * The command builds public links (certificate pages and e-mails, and whatever the jobs it runs
   * send): without a `PUBLIC_BASE_URL` of its own, it uses the URL the server recorded when it last
   * started, and refuses to run when there is none (never links to a guessed address).
   */
  readonly links?: boolean
}

/**
 * Runs `use` against the configured database (the server's environment: `DATABASE_URL`, else the
 * embedded database in `DATA_DIR`), with pending migrations applied first; the database is closed
 * when it ends. The embedded database is one process's at a time: stop the server first. Links are
 * built with `PUBLIC_BASE_URL` when set, else with the URL the server recorded (see `links`).
 */
export const withServices = <A, E>(use: Effect.Effect<A, E, Services>, options: SessionOptions = {}) =>
  Effect.gen(function*() {
    const config = yield* commandConfig
    const rodaConfig: RodaConfig = {
      database: config.database,
      options: { ...config.options, runJobs: options.runJobs === true },
      // Not the server: its own PUBLIC_BASE_URL, else the one the server recorded.
      publicUrl: config.publicBaseUrlGiven === true ? "given" : options.links === true ? "recordedOnly" : "recorded",
      ...(config.stripe ? { paymentGateway: stripeGateway(config.stripe) } : {})
    }
    return yield* Effect.provide(use, servicesLayer(rodaConfig)).pipe(
      Effect.catchSomeDefect((defect) =>
        defect instanceof PublicUrlUnknown ? Option.some(Effect.fail(failure(cliMessages.noPublicUrl))) : Option.none()
      )
    )
  })

/**
 * The account named by `--as`: it must be a platform operator, an e-mail listed in
 * `PLATFORM_ADMIN_EMAILS` that its holder verified (the rule the HTTP admin routes apply). The
 * services receive it as the caller, as they receive the token's account over HTTP.
 */
export const operator = (email: string) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    const account = yield* identity.findByEmail(email)
    if (Option.isNone(account)) return yield* Effect.fail(failure(cliMessages.noAccount(email.trim())))
    if (!account.value.isPlatformAdmin) {
      return yield* Effect.fail(new AppError({ status: 403, text: Messages.platformAdminRequired }))
    }
    return account.value
  })

/**
 * The operator as a member of a community (certificates are issued by someone of the community):
 * their own live profile and role there; 403 `Você não é membro desta comunidade.` otherwise.
 */
export const memberOf = (account: Account, community: string) =>
  Effect.gen(function*() {
    const communityId = CommunityId.make(community)
    const memberships = yield* Memberships
    const row = yield* memberships.callerIn(communityId, account.id)
    const profileId = Option.flatMap(row, (found) => Option.fromNullable(found.profileId))
    const role = Option.flatMap(row, (found) => Option.fromNullable(found.role))
    if (Option.isNone(profileId) || Option.isNone(role)) {
      return yield* Effect.fail(new AppError({ status: 403, text: Messages.notMember }))
    }
    return {
      account,
      communityId,
      profileId: profileId.value,
      role: role.value,
      actingProfileId: profileId.value
    } satisfies Member
  })
