// What src/platform/stripe uses of the `stripe` package's types, for tsconfig.src.json alone (core's
// code type-checked without Node's types). The package's own types reference Node's, which would let
// `Buffer`, `process` and `node:*` type-check anywhere in src and defeat that check. Everything else
// (`pnpm typecheck`'s first pass, the build) checks src/platform/stripe against the real types.
type Call<A = any> = (...args: Array<any>) => Promise<A>

declare class Stripe {
  constructor(secretKey: string, config?: unknown)
  readonly customers: { readonly create: Call }
  readonly paymentIntents: {
    readonly create: Call
    readonly retrieve: Call
    readonly search: Call<{ readonly data: Array<Stripe.PaymentIntent> }>
    readonly cancel: Call
  }
  readonly refunds: { readonly create: Call }
  readonly webhooks: { readonly constructEventAsync: Call<Stripe.Event> }
  static createFetchHttpClient(): unknown
  static createSubtleCryptoProvider(): unknown
  static readonly errors: { readonly StripeError: abstract new(...args: Array<any>) => Stripe.errors.StripeError }
}

declare namespace Stripe {
  type Event = any
  type PaymentIntent = any
  type PaymentIntentCreateParams = any
  namespace errors {
    interface StripeError extends Error {
      readonly type: string
      readonly code?: string
      readonly [field: string]: any
    }
  }
}

export default Stripe
