import { stripeKeyProblems } from "../../src/platform/stripe/settings"
import { type Env, problem, type SettingCheck } from "./checks"

const MIN_SECRET_LENGTH = 32

/** Gateways Roda can run; real gateways join the list as they are built. */
export const PAYMENT_GATEWAYS = ["sandbox", "stripe"] as const
export type PaymentGatewayName = (typeof PAYMENT_GATEWAYS)[number]

export const isGateway = (name: string): name is PaymentGatewayName =>
  (PAYMENT_GATEWAYS as ReadonlyArray<string>).includes(name)

/** `PAYMENT_GATEWAY` as Roda runs it: the sandbox by default only on the embedded database. */
export const gatewayOf = (env: Env) =>
  env.PAYMENT_GATEWAY === undefined
    ? env.DATABASE_URL === undefined ? "sandbox" : undefined
    : env.PAYMENT_GATEWAY.trim().toLowerCase()

const tooShort = (variable: string, value: string, fix: string) =>
  value.length >= MIN_SECRET_LENGTH
    ? []
    : [problem(variable, `must be at least ${MIN_SECRET_LENGTH} characters long (it has ${value.length})`, fix)]

/** `JWT_SECRET`: at least 32 characters; required with `DATABASE_URL` (embedded: generated and kept in DATA_DIR). */
export const jwtSecretCheck: SettingCheck = {
  variables: ["JWT_SECRET", "DATABASE_URL"],
  check: ({ DATABASE_URL, JWT_SECRET }) => {
    const fix = "set it to 32 or more random characters, e.g. the output of: openssl rand -base64 48"
    if (JWT_SECRET !== undefined) return tooShort("JWT_SECRET", JWT_SECRET, fix)
    return DATABASE_URL === undefined ? [] : [problem("JWT_SECRET", "is required when DATABASE_URL is set", fix)]
  }
}

/** `PAYMENT_GATEWAY`: one of the gateways; required with `DATABASE_URL` (never the sandbox by accident). */
export const paymentGatewayCheck: SettingCheck = {
  variables: ["PAYMENT_GATEWAY", "DATABASE_URL"],
  check: (env) => {
    const gateway = gatewayOf(env)
    const fix = `set it to ${PAYMENT_GATEWAYS.join(" or ")}`
    if (gateway === undefined) return [problem("PAYMENT_GATEWAY", "is required when DATABASE_URL is set", fix)]
    return isGateway(gateway) ? [] : [problem("PAYMENT_GATEWAY", `unknown gateway ${gateway}`, fix)]
  }
}

/** `SANDBOX_WEBHOOK_SECRET` with the sandbox: at least 32 characters; required with `DATABASE_URL`. */
export const sandboxSecretCheck: SettingCheck = {
  variables: ["SANDBOX_WEBHOOK_SECRET", "PAYMENT_GATEWAY", "DATABASE_URL"],
  check: (env) => {
    const secret = env.SANDBOX_WEBHOOK_SECRET
    const fix = "set it to whsec_ and a base64 key, e.g. whsec_$(openssl rand -base64 32)"
    if (secret !== undefined) return tooShort("SANDBOX_WEBHOOK_SECRET", secret, fix)
    return gatewayOf(env) === "sandbox" && env.DATABASE_URL !== undefined
      ? [problem("SANDBOX_WEBHOOK_SECRET", "is required when DATABASE_URL is set and PAYMENT_GATEWAY is sandbox", fix)]
      : []
  }
}

/** `STRIPE_SECRET_KEY` and `STRIPE_WEBHOOK_SECRET` with `PAYMENT_GATEWAY=stripe`. */
export const stripeKeysCheck: SettingCheck = {
  variables: ["PAYMENT_GATEWAY", "DATABASE_URL", "STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET"],
  check: (env) => gatewayOf(env) === "stripe" ? stripeKeyProblems(env) : []
}
