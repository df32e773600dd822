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
