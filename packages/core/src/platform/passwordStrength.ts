/** Spec §5.6 and §8: at least 8 characters, with an uppercase letter, a lowercase letter and a number. */
export const isStrongPassword = (password: string): boolean =>
  password.length >= 8 && /[A-Z]/.test(password) && /[a-z]/.test(password) && /[0-9]/.test(password)
