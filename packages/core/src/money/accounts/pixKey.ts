import { brazilianTaxIdKind, digitsOnly, normalizeTaxId } from "../../domain/TaxId"

export type PixKeyType = "CPF" | "CNPJ" | "EMAIL" | "PHONE" | "RANDOM"

const email = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const phone = /^\+55\d{10,11}$/
const random = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** A PIX key in its stored form with its kind, or undefined when it is no valid key of any kind. */
export const parsePixKey = (raw: string): { readonly key: string; readonly type: PixKeyType } | undefined => {
  const value = raw.trim()
  if (random.test(value)) return { key: value.toLowerCase(), type: "RANDOM" }
  if (email.test(value) && value.length <= 77) return { key: value.toLowerCase(), type: "EMAIL" }
  if (value.startsWith("+")) {
    const compact = `+${digitsOnly(value)}`
    return phone.test(compact) ? { key: compact, type: "PHONE" } : undefined
  }
  const kind = brazilianTaxIdKind(value)
  return kind === undefined ? undefined : { key: normalizeTaxId(value), type: kind }
}
