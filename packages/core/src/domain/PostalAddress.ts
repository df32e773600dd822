import { Schema } from "effect"
import { Name } from "./Fields"

/** A postal address as banks and tax authorities register it: a business's, or a boleto payer's. */
export interface PostalAddress {
  readonly street: string
  readonly number: string
  readonly complement?: string | undefined
  readonly neighbourhood?: string | undefined
  readonly city: string
  readonly state: string
  readonly postalCode: string
  readonly country: string
}

/** The request schema of a `PostalAddress`; each use says which countries it accepts. */
export const PostalAddressBody = <A extends string, I>(country: Schema.Schema<A, I>) =>
  Schema.Struct({
    street: Name(200),
    number: Name(20),
    complement: Schema.optional(Name(200)),
    neighbourhood: Schema.optional(Name(200)),
    city: Name(200),
    state: Name(100),
    postalCode: Name(20),
    country
  })
