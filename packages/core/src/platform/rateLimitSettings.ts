/**
 * The named limits on abuse (platform.md "Limits on abuse") and their settings: `RATE_LIMITS` (a JSON
 * object) and makeRoda's `rateLimits` option, both `{ name: { limit, windowSeconds } }`; a limit of
 * 0 (or the entry `0`) turns one off. `recovery` counts per target e-mail (`limit`) and per client
 * (`clientLimit`), in one window.
 */
export const RATE_LIMIT_NAMES = [
  "recovery",
  "verifyEmail",
  "register",
  "invite",
  "certificateMail",
  "paymentLink",
  "posting",
  "apiKey"
] as const

export type RateLimitName = typeof RATE_LIMIT_NAMES[number]

export interface RateLimitSetting {
  /** Counted actions allowed in a window; 0 turns the limit off. */
  readonly limit: number
  readonly windowSeconds: number
  /** `recovery` only: requests allowed per client address in the window (0: not counted). */
  readonly clientLimit?: number | undefined
}

/** Given per name: a setting, or `0` for off. Names left out keep their default. */
export type RateLimitSettings = Partial<Record<RateLimitName, RateLimitSetting | 0>>

const HOUR = 3600
const DAY = 24 * HOUR

export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitName, RateLimitSetting>> = {
  recovery: { limit: 3, windowSeconds: HOUR, clientLimit: 20 },
  verifyEmail: { limit: 3, windowSeconds: HOUR },
  register: { limit: 10, windowSeconds: HOUR },
  invite: { limit: 200, windowSeconds: HOUR },
  certificateMail: { limit: 5, windowSeconds: DAY },
  paymentLink: { limit: 5, windowSeconds: DAY },
  posting: { limit: 20, windowSeconds: 60 },
  apiKey: { limit: 6000, windowSeconds: 60 }
}

/** Every limit turned off (tests that are not about limits). */
export const RATE_LIMITS_OFF: RateLimitSettings = Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [name, 0]))

const OFF: RateLimitSetting = { limit: 0, windowSeconds: 1, clientLimit: 0 }

/** A window longer than this is surely a mistake (a year). */
const MAX_WINDOW_SECONDS = 366 * DAY
const MAX_LIMIT = 1_000_000_000

const isCount = (value: unknown): value is number =>
  typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_LIMIT

/** Every problem of `given` (a parsed `RATE_LIMITS`, or the `rateLimits` option), one sentence each. */
export const rateLimitProblems = (given: unknown): ReadonlyArray<string> => {
  if (given === undefined) return []
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    return ["must be an object of { name: { limit, windowSeconds } }"]
  }
  const problems: Array<string> = []
  for (const [name, value] of Object.entries(given)) {
    if (!(RATE_LIMIT_NAMES as ReadonlyArray<string>).includes(name)) {
      problems.push(`${name} is not a limit (known: ${RATE_LIMIT_NAMES.join(", ")})`)
      continue
    }
    if (value === 0) continue
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      problems.push(`${name} must be { limit, windowSeconds } or 0`)
      continue
    }
    const { clientLimit, limit, windowSeconds, ...rest } = value as Record<string, unknown>
    if (!isCount(limit)) problems.push(`${name}.limit must be a whole number, 0 to turn it off`)
    if (
      typeof windowSeconds !== "number" || !Number.isInteger(windowSeconds) || windowSeconds < 1 ||
      windowSeconds > MAX_WINDOW_SECONDS
    ) problems.push(`${name}.windowSeconds must be a whole number of seconds from 1 to ${MAX_WINDOW_SECONDS}`)
    if (clientLimit !== undefined && (name !== "recovery" || !isCount(clientLimit))) {
      problems.push(
        name === "recovery"
          ? "recovery.clientLimit must be a whole number, 0 to turn it off"
          : `${name}.clientLimit is not a setting (only recovery has one)`
      )
    }
    for (const key of Object.keys(rest)) problems.push(`${name}.${key} is not a setting (limit, windowSeconds)`)
  }
  return problems
}

/** The limits in force: the defaults, with `given` (already checked) over them. */
export const resolveRateLimits = (
  given: RateLimitSettings | undefined
): Readonly<Record<RateLimitName, RateLimitSetting>> =>
  Object.fromEntries(RATE_LIMIT_NAMES.map((name) => {
    const setting = given?.[name]
    if (setting === undefined) return [name, DEFAULT_RATE_LIMITS[name]]
    if (setting === 0) return [name, OFF]
    // recovery without clientLimit keeps the default per-client limit
    return [name, { ...setting, clientLimit: setting.clientLimit ?? DEFAULT_RATE_LIMITS[name].clientLimit }]
  })) as Record<RateLimitName, RateLimitSetting>
