import type { Text } from "./Text"
import { coded, same, text } from "./Text"

/**
 * The shared messages: spec §7's, the framework's (`app/`, `http/`) and those said by more than one
 * feature (or by a kernel). A feature's own messages live in its `messages.ts`. Strings of spec §7
 * are verbatim in `pt` (the default language); English-only strings of the spec read the same in both.
 */
export const Messages = coded({
  // spec §7
  tokenRequired: same("Authentication token is required"),
  tokenInvalid: same("Invalid or expired token"),
  notMember: text("Você não é membro desta comunidade.", "You are not a member of this community."),
  roleRequired: (required: ReadonlyArray<string>, actual: string): Text =>
    text(
      `Função necessária: ${required.join(" ou ")}. Sua função: ${actual}`,
      `Required role: ${required.join(" or ")}. Your role: ${actual}`
    ),
  actingProfileForbidden: text(
    "Permissões insuficientes para usar X-ProfileId.",
    "Insufficient permissions to use X-ProfileId."
  ),
  actingProfileNotFound: same("Profile not found in this community."),
  /** As every malformed value: `invalid_input`. */
  actingProfileInvalid: { ...same("X-ProfileId must be a valid UUID"), code: "invalid_input" as const },
  communityHeaderMissing: text(
    "Send the community in the X-CommunityId header.",
    "Send the community in the X-CommunityId header."
  ),
  communityHeaderParam: text("X-CommunityId é obrigatório", "X-CommunityId is required"),

  // framework
  // API keys (platform.md "API keys"): said by the request middleware
  apiKeyScopeMissing: (scope: string): Text =>
    text(`Esta chave de API não tem o escopo ${scope}.`, `This API key lacks the ${scope} scope.`),
  apiKeyRouteRefused: text("Chaves de API não podem usar esta rota.", "API keys cannot use this route."),
  apiKeyOtherCommunity: text(
    "Esta chave de API é de outra comunidade.",
    "This API key belongs to another community."
  ),
  notFound: text("Recurso não encontrado.", "Resource not found."),
  routeNotFound: text("Rota não encontrada.", "Route not found."),
  invalidRequest: text("Dados inválidos.", "Invalid request."),
  invalidJson: same("Request body is not valid JSON"),
  jsonTooDeep: same("Request body is nested too deeply"),
  serviceUnavailable: text(
    "Serviço temporariamente indisponível; tente novamente.",
    "Service temporarily unavailable; please retry."
  ),
  rateLimited: text(
    "Muitas solicitações. Tente novamente mais tarde.",
    "Too many requests. Try again later."
  ),
  idempotencyKeyReused: same("Idempotency-Key was already used with another request"),
  idempotencyKeyInvalid: same("Idempotency-Key must be 1 to 255 visible ASCII characters"),
  bodyTooLarge: same("Request body exceeds the 1 MB limit"),
  multipartBody: same("Request bodies are JSON (or a form where the route says so); multipart is not accepted"),
  nulCharacter: same("Request contains a NUL character"),
  loneSurrogate: same("Request body is not valid Unicode"),
  internalError: text("Erro interno do servidor.", "Internal server error."),
  communityMismatch: same("communityId must equal the X-CommunityId header"),

  // the gates of domain/Policy.ts
  /** Not in spec §7: the gates of a verified e-mail (issue 52), see `requireVerifiedEmail`. */
  emailNotVerified: text(
    "Confirme seu e-mail antes: use o link que enviamos (ou peça outro em POST /api/auth/verify-email).",
    "Confirm your e-mail first: use the link we sent (or ask for another with POST /api/auth/verify-email)."
  ),
  platformAdminRequired: text(
    "Apenas operadores da plataforma (SuperAdmin) podem fazer isto.",
    "Only platform operators (SuperAdmin) may do this."
  ),

  // said by several features (or a kernel): spec §7 strings verbatim
  communityNotFound: text("Comunidade não encontrada.", "Community not found."),
  slugTaken: text("Este endereço (slug) já está em uso.", "This slug is already in use."),
  spaceContentForbidden: text(
    "Você não tem acesso ao conteúdo deste espaço.",
    "You do not have access to this space's content."
  ),
  spaceIdRequired: text("ID do espaço é obrigatório.", "Space ID is required."),
  spaceNotFound: text(
    "Espaço não encontrado ou não pertence a esta comunidade.",
    "Space not found or does not belong to this community."
  ),
  courseNotFound: text("Curso não encontrado.", "Course not found."),
  reactionSaved: text("Reação registrada.", "Reaction saved."),
  reactionRemoved: text("Reação removida.", "Reaction removed."),
  commentCreated: text("Comentário criado com sucesso.", "Comment created."),
  productNotFound: same("Product not found"),
  paymentNotConfigured: same("Payment configuration has not been set up for this community")
})
