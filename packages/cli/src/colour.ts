import { Effect } from "effect"

/**
 * Whether a stream gets colours: only a terminal, and not when `NO_COLOR` is set to anything but the
 * empty string (https://no-color.org).
 */
export const wantsColor = (isTTY: boolean | undefined, env: Record<string, string | undefined>) =>
  isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "")

const ESCAPES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, "g")

const plain = (args: ReadonlyArray<unknown>) =>
  args.map((arg) => (typeof arg === "string" ? arg.replace(ESCAPES, "") : arg))

/**
 * `effect` with ANSI escapes taken out of what it prints on a stream that wants no colours: @effect/cli
 * writes its own messages (a wrong option, `--version`) with them, whatever the stream is.
 */
export const withColours =
  (colour: { readonly stdout: boolean; readonly stderr: boolean }) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    colour.stdout && colour.stderr ? effect : Effect.flatMap(Effect.console, (console) =>
      Effect.withConsole(effect, {
        ...console,
        log: (...args) => colour.stdout ? console.log(...args) : console.log(...plain(args)),
        info: (...args) => colour.stdout ? console.info(...args) : console.info(...plain(args)),
        error: (...args) => colour.stderr ? console.error(...args) : console.error(...plain(args)),
        warn: (...args) => colour.stderr ? console.warn(...args) : console.warn(...plain(args))
      }))
