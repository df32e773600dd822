import { coded, text } from "../domain/Text"

export const ApiKeyMessages = coded({
  created: text(
    "Chave de API criada. Guarde-a agora: ela não será mostrada de novo.",
    "API key created. Keep it now: it will not be shown again."
  ),
  listed: text("Chaves de API.", "API keys."),
  revoked: text("Chave de API revogada.", "API key revoked."),
  apiKeyNotFound: text("Chave de API não encontrada.", "API key not found."),
  nameRequired: text("Dê um nome à chave (até 100 caracteres).", "Give the key a name (up to 100 characters)."),
  scopesInvalid: text(
    "Escolha ao menos um escopo válido: community:read, community:write, content:read, content:write, learning:read, learning:write, commerce:read, commerce:write, money:read, webhooks:manage.",
    "Choose at least one valid scope: community:read, community:write, content:read, content:write, learning:read, learning:write, commerce:read, commerce:write, money:read, webhooks:manage."
  ),
  expiresAtPast: text("expiresAt deve ser uma data futura.", "expiresAt must be in the future.")
})
