import { coded, text } from "../domain/Text"

export const WebhookMessages = coded({
  created: text(
    "Webhook criado. Guarde o segredo: ele assina cada entrega.",
    "Webhook created. Keep the secret: it signs every delivery."
  ),
  listed: text("Webhooks.", "Webhooks."),
  found: text("Webhook encontrado.", "Webhook found."),
  updated: text("Webhook atualizado.", "Webhook updated."),
  deleted: text("Webhook removido.", "Webhook deleted."),
  rotated: text(
    "Novo segredo criado; o anterior continua assinando por 24 horas.",
    "New secret made; the previous one keeps signing for 24 hours."
  ),
  testQueued: text("Evento webhook.test enviado.", "webhook.test event sent."),
  deliveries: text("Entregas do webhook.", "Webhook deliveries."),
  retried: text("Entrega reenviada.", "Delivery sent again."),
  events: text("Eventos da comunidade.", "Community events."),
  webhookNotFound: text("Webhook não encontrado.", "Webhook not found."),
  deliveryNotFound: text("Entrega não encontrada.", "Delivery not found."),
  webhookDisabled: text(
    "Este webhook está desativado: ative-o antes de reenviar.",
    "This webhook is disabled: enable it before sending again."
  ),
  urlNotAllowed: text(
    "A URL deve ser https para um endereço público.",
    "The URL must be https to a public address."
  ),
  disabledSubject: text("Webhook desativado", "Webhook disabled")
})
