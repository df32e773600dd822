/**
 * Start-up checks of the environment: every setting contributes a `SettingCheck` to one list, and a
 * start runs them all and reports every problem at once (one line each, naming the environment
 * variable and the fix) instead of stopping at the first. A new setting is one more entry.
 */
import { Config, Effect, Option } from "effect"

/** The variables a check reads, as the process was given them (`undefined` when unset). */
export type Env = Readonly<Record<string, string | undefined>>

export interface CheckContext {
  /**
   * What a `DATA_DIR` that does not exist means. Only the server's first start makes it (`create`);
   * any other program refuses (`refuse`): a typo would otherwise open a new, empty database.
   */
  readonly missingDataDir: "create" | "refuse"
  /** Connect to `DATABASE_URL` to see that it answers (a program's start; not a mere read of the environment). */
  readonly connect: boolean
}

export const defaultCheckContext: CheckContext = { missingDataDir: "create", connect: false }

export interface SettingProblem {
  /** The environment variable to change. */
  readonly variable: string
  /** What is wrong with it. */
  readonly problem: string
  /** What to do about it. */
  readonly fix: string
}

export interface SettingCheck {
  /** Every variable `check` reads. */
  readonly variables: ReadonlyArray<string>
  readonly check: (
    env: Env,
    context: CheckContext
  ) => ReadonlyArray<SettingProblem> | Promise<ReadonlyArray<SettingProblem>>
}

export const problem = (variable: string, what: string, fix: string): SettingProblem => ({
  variable,
  problem: what,
  fix
})

/** A problem's line: the variable first, then what is wrong, then the fix. */
export const problemLine = (found: SettingProblem) => `${found.variable}: ${found.problem} — ${found.fix}`

/** The environment could not be used; `message` is one line per problem. */
export class SettingsError extends Error {
  override readonly name = "SettingsError"
  constructor(readonly problems: ReadonlyArray<SettingProblem>) {
    super(problems.map(problemLine).join("\n"))
  }
}

export const isSettingsError = (error: unknown): error is SettingsError =>
  error instanceof Error && error.name === "SettingsError" && Array.isArray((error as SettingsError).problems)

/** The variables `checks` read, from the current `ConfigProvider` (the process's environment by default). */
const readEnv = (checks: ReadonlyArray<SettingCheck>) =>
  Effect.gen(function*() {
    const env: Record<string, string | undefined> = {}
    for (const name of new Set(checks.flatMap((entry) => entry.variables))) {
      env[name] = Option.getOrUndefined(
        yield* Config.option(Config.string(name)).pipe(Effect.orElseSucceed(Option.none))
      )
    }
    return env
  })

/** Every problem `checks` find, in their order. */
export const settingProblems = (checks: ReadonlyArray<SettingCheck>, context: CheckContext = defaultCheckContext) =>
  Effect.flatMap(readEnv(checks), (env) =>
    Effect.promise(async () => {
      const found = await Promise.all(checks.map(async (entry) => entry.check(env, context)))
      return found.flat()
    }))

/** Dies with a `SettingsError` naming every problem `checks` find; nothing when there is none. */
export const requireSettings = (checks: ReadonlyArray<SettingCheck>, context: CheckContext = defaultCheckContext) =>
  Effect.flatMap(
    settingProblems(checks, context),
    (problems) => problems.length === 0 ? Effect.void : Effect.die(new SettingsError(problems))
  )
