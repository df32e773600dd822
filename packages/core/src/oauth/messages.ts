import { coded, text } from "../domain/Text"

export const OAuthMessages = coded({
  requestFound: text("Pedido de autorização encontrado.", "Authorization request found."),
  requestNotFound: text(
    "Pedido de autorização não encontrado ou expirado.",
    "Authorization request not found or expired."
  ),
  requestDecided: text(
    "Este pedido de autorização já foi respondido.",
    "This authorization request has already been answered."
  ),
  consented: text("Acesso autorizado.", "Access allowed."),
  denied: text("Acesso negado.", "Access denied."),
  connections: text("Assistentes conectados.", "Connected assistants."),
  connectionNotFound: text("Conexão não encontrada.", "Connection not found."),
  disconnected: text("Assistente desconectado.", "Assistant disconnected."),
  diagnostics: text("Diagnóstico da conexão.", "Connection diagnostics."),
  audit: text("Auditoria do MCP.", "MCP audit.")
})
