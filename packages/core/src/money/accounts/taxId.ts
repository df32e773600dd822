/** Brazilian tax ids: CPF (people, 11 digits) and CNPJ (companies, 14 digits), with check digits. */

export type TaxIdKind = "CPF" | "CNPJ"

export const digitsOnly = (value: string): string => value.replace(/\D/g, "")

const allSame = (digits: string) => /^(\d)\1*$/.test(digits)

const checkDigit = (digits: string, weights: ReadonlyArray<number>): number => {
  const sum = weights.reduce((total, weight, index) => total + weight * Number(digits[index]), 0)
  const rest = sum % 11
  return rest < 2 ? 0 : 11 - rest
}

export const isValidCpf = (value: string): boolean => {
  const digits = digitsOnly(value)
  if (digits.length !== 11 || allSame(digits)) return false
  const first = checkDigit(digits, [10, 9, 8, 7, 6, 5, 4, 3, 2])
  const second = checkDigit(digits, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
  return digits.endsWith(`${first}${second}`)
}

export const isValidCnpj = (value: string): boolean => {
  const digits = digitsOnly(value)
  if (digits.length !== 14 || allSame(digits)) return false
  const first = checkDigit(digits, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  const second = checkDigit(digits, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  return digits.endsWith(`${first}${second}`)
}

/** The kind of a valid CPF or CNPJ (punctuation ignored); undefined when it is neither. */
export const brazilianTaxIdKind = (value: string): TaxIdKind | undefined => {
  if (!/^[\d.\-/\s]+$/.test(value)) return undefined
  if (isValidCpf(value)) return "CPF"
  if (isValidCnpj(value)) return "CNPJ"
  return undefined
}
