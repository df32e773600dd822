import { coded, type Text, text } from "../domain/Text"
import type { NotificationKind } from "./kinds"

export const NotificationMessages = coded({
  listed: text("Notificações.", "Notifications."),
  unreadCount: text("Notificações não lidas.", "Unread notifications."),
  read: text("Notificação marcada como lida.", "Notification marked as read."),
  allRead: text("Todas as notificações foram marcadas como lidas.", "All notifications marked as read."),
  followed: text("Você está seguindo este espaço.", "You are following this space."),
  unfollowed: text("Você deixou de seguir este espaço.", "You no longer follow this space."),
  preferences: text("Preferências de notificação.", "Notification preferences."),
  preferencesSaved: text("Preferências de notificação salvas.", "Notification preferences saved."),
  notificationNotFound: text("Notificação não encontrada.", "Notification not found."),
  unsubscribeTokenInvalid: text("Link de cancelamento inválido.", "Invalid unsubscribe link.")
})

const SOMEONE = text("Alguém", "Someone")

/** What a notification says, by kind: written when it is read, in the reader's language. */
const phrases: Record<NotificationKind, (actor: string, title: string, language: keyof Text) => string> = {
  mention: (a, t, l) => l === "pt" ? `${a} mencionou você em “${t}”.` : `${a} mentioned you in “${t}”.`,
  reply: (a, t, l) => l === "pt" ? `${a} respondeu a você em “${t}”.` : `${a} replied to you in “${t}”.`,
  reaction: (a, t, l) => l === "pt" ? `${a} reagiu a “${t}”.` : `${a} reacted to “${t}”.`,
  space_post: (a, t, l) => l === "pt" ? `${a} publicou “${t}”.` : `${a} posted “${t}”.`,
  event_reminder: (_, t, l) => l === "pt" ? `“${t}” começa em breve.` : `“${t}” starts soon.`,
  event_changed: (_, t, l) => l === "pt" ? `“${t}” mudou.` : `“${t}” has changed.`,
  course_update: (_, t, l) => l === "pt" ? `Nova aula em “${t}”.` : `A new lesson in “${t}”.`,
  certificate_issued: (_, t, l) =>
    l === "pt" ? `Seu certificado de “${t}” foi emitido.` : `Your certificate for “${t}” was issued.`,
  submission_update: (_, t, l) =>
    l === "pt" ? `Sua proposta “${t}” foi atualizada.` : `Your submission “${t}” was updated.`,
  invitation: (a, t, l) => l === "pt" ? `${a} convidou você para “${t}”.` : `${a} invited you to “${t}”.`,
  payment_failed: (_, t, l) =>
    l === "pt" ? `O pagamento de “${t}” não foi aprovado.` : `The payment for “${t}” failed.`,
  payout_update: (_, t, l) => l === "pt" ? `Seu saque ${t} foi atualizado.` : `Your payout ${t} was updated.`,
  moderation: (_, t, l) => l === "pt" ? `A moderação agiu sobre “${t}”.` : `Moderation acted on “${t}”.`
}

/** The text of a notification; an actor no longer shown (removed) is “Alguém” / “Someone”. */
export const notificationText = (
  kind: string,
  actorName: string | null,
  title: string,
  language: keyof Text
): string => {
  const phrase = phrases[kind as NotificationKind]
  const actor = actorName ?? SOMEONE[language]
  return phrase === undefined ? title : phrase(actor, title, language)
}
