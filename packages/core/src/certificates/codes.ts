/**
 * Verification codes: 80 random bits in Crockford's base32 (no I, L, O, U), grouped
 * `XXXX-XXXX-XXXX-XXXX`: unguessable, and short enough to read aloud or type. Reading a code forgives
 * case, spaces, missing dashes and the look-alikes I/L (1) and O (0).
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/** A code from 10 random bytes (80 bits). */
export const codeOf = (random: Uint8Array): string => {
  if (random.length < 10) throw new Error("a code needs 10 random bytes")
  let bits = 0n
  for (const byte of random.subarray(0, 10)) bits = (bits << 8n) | BigInt(byte)
  let out = ""
  for (let i = 15; i >= 0; i--) out += ALPHABET[Number((bits >> BigInt(i * 5)) & 31n)]
  return `${out.slice(0, 4)}-${out.slice(4, 8)}-${out.slice(8, 12)}-${out.slice(12)}`
}

/** The canonical form of a typed code, or undefined when it cannot be one. */
export const normalizeCode = (typed: string): string | undefined => {
  const compact = typed.toUpperCase().replace(/[\s-]/g, "").replace(/[IL]/g, "1").replace(/O/g, "0")
  if (compact.length !== 16 || [...compact].some((char) => !ALPHABET.includes(char))) return undefined
  return `${compact.slice(0, 4)}-${compact.slice(4, 8)}-${compact.slice(8, 12)}-${compact.slice(12)}`
}
