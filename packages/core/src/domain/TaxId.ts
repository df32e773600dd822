/**
 * Brazilian tax ids: CPF (people, 11 digits) and CNPJ (companies, 14 characters), with check digits.
 * Since July 2026 new CNPJs are alphanumeric (IN RFB 2.229/2024): the first 12 characters are digits or
 * upper-case letters, the two check digits stay numeric. Each character counts as its ASCII code − 48
 * (0–9 → 0–9, A → 17 … Z → 42), so numeric CNPJs keep their old check digits.
 */

export type TaxIdKind = "CPF" | "CNPJ"

export const digitsOnly = (value: string): string => value.replace(/\D/g, "")

/** The stored form of a tax id: punctuation and spaces dropped, letters in upper case. */
export const normalizeTaxId = (value: string): string => value.replace(/[.\-/\s]/g, "").toUpperCase()

const allSame = (characters: string) => /^(.)\1*$/.test(characters)

const valueOf = (character: string) => character.charCodeAt(0) - 48

const checkDigit = (characters: string, weights: ReadonlyArray<number>): number => {
  const sum = weights.reduce((total, weight, index) => total + weight * valueOf(characters[index]!), 0)
  const rest = sum % 11
  return rest < 2 ? 0 : 11 - rest
}

export const isValidCpf = (value: string): boolean => {
  const digits = normalizeTaxId(value)
  if (!/^\d{11}$/.test(digits) || allSame(digits)) return false
  const first = checkDigit(digits, [10, 9, 8, 7, 6, 5, 4, 3, 2])
  const second = checkDigit(digits, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2])
  return digits.endsWith(`${first}${second}`)
}

/** A numeric or alphanumeric CNPJ (punctuation and letter case ignored) with both check digits right. */
export const isValidCnpj = (value: string): boolean => {
  const characters = normalizeTaxId(value)
  if (!/^[0-9A-Z]{12}\d{2}$/.test(characters) || allSame(characters)) return false
  const first = checkDigit(characters, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  const second = checkDigit(characters, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2])
  return characters.endsWith(`${first}${second}`)
}

/** The kind of a valid CPF or CNPJ (punctuation and letter case ignored); undefined when it is neither. */
export const brazilianTaxIdKind = (value: string): TaxIdKind | undefined => {
  if (!/^[0-9A-Za-z.\-/\s]+$/.test(value)) return undefined
  if (isValidCpf(value)) return "CPF"
  if (isValidCnpj(value)) return "CNPJ"
  return undefined
}
