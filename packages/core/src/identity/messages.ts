import { coded, same, text } from "../domain/Text"

/** Messages of sign-in sessions and of taking an account back (Portuguese by default, English on request). */
export const sessionMessages = coded({
  sessionsFound: text("Sessões encontradas.", "Sessions found."),
  sessionEnded: text("Sessão encerrada.", "Session ended."),
  sessionsEnded: text("Sessões encerradas.", "Sessions ended."),
  sessionNotFound: text("Sessão não encontrada.", "Session not found."),
  accountNotFound: text("Conta não encontrada.", "Account not found."),
  emailChangeUndone: text(
    "A troca de e-mail foi desfeita e todas as sessões foram encerradas.",
    "The e-mail change was undone and every session was ended."
  ),
  currentPasswordRequired: same("currentPassword is required")
})

/** Messages of accounts: registering, signing in, passwords and e-mail confirmation (Portuguese by default, English on request). */
export const identityMessages = coded({
  registered: text("Conta criada com sucesso.", "Account created."),
  loggedIn: text("Login realizado com sucesso.", "Logged in."),
  invalidCredentials: text("E-mail ou senha inválidos.", "Invalid e-mail or password."),
  tooManyAttempts: text(
    "Muitas tentativas de login. Tente novamente mais tarde.",
    "Too many login attempts. Try again later."
  ),
  emailTaken: text("Este e-mail já está cadastrado.", "This e-mail is already registered."),
  passwordRule: same(
    "Password must be at least 8 characters long and contain an uppercase letter, a lowercase letter and a number"
  ),
  currentPasswordWrong: text("A senha atual está incorreta.", "The current password is incorrect."),
  passwordChanged: text("Senha alterada com sucesso.", "Password changed."),
  recoverySent: text(
    "Se o e-mail estiver cadastrado, enviaremos um link para redefinir a senha.",
    "If the e-mail is registered, a link to reset the password has been sent."
  ),
  linkInvalid: text("Link inválido.", "Invalid link."),
  linkExpired: text("Este link já foi usado ou expirou.", "This link has already been used or has expired."),
  passwordSet: text("Senha definida com sucesso.", "Password set."),
  accountFound: text("Conta encontrada.", "Account found."),
  emailConfirmed: text("E-mail confirmado com sucesso.", "E-mail confirmed."),
  verificationSent: text(
    "Se o e-mail ainda não foi confirmado, enviamos um link de confirmação.",
    "If the e-mail is not confirmed yet, a confirmation link has been sent."
  )
})
