import type { Text } from "./Text"
import { same, text } from "./Text"

/**
 * The message catalogue. Strings of spec §7 are verbatim in `pt` (the default language);
 * English-only strings of the spec read the same in both languages.
 */
export const Messages = {
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
  communityHeaderMissing: text(
    "Send the community in the X-CommunityId header.",
    "Send the community in the X-CommunityId header."
  ),
  communityHeaderParam: text("X-CommunityId é obrigatório", "X-CommunityId is required"),

  // framework
  notFound: text("Recurso não encontrado.", "Resource not found."),
  routeNotFound: text("Rota não encontrada.", "Route not found."),
  invalidRequest: text("Dados inválidos.", "Invalid request."),
  invalidJson: same("Request body is not valid JSON"),
  bodyTooLarge: same("Request body exceeds the 1 MB limit"),
  nulCharacter: same("Request contains a NUL character"),
  internal: text("Erro interno do servidor.", "Internal server error."),
  communityMismatch: same("communityId must equal the X-CommunityId header"),

  // identity
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

  // communities
  communityCreated: text("Comunidade criada com sucesso.", "Community created."),
  communityUpdated: text("Comunidade atualizada com sucesso.", "Community updated."),
  communityDeleted: text("Comunidade removida com sucesso.", "Community removed."),
  communityNotFound: text("Comunidade não encontrada.", "Community not found."),
  communities: text("Comunidades encontradas.", "Communities found."),
  slugTaken: text("Este endereço (slug) já está em uso.", "This slug is already in use."),
  domainTaken: text("Este domínio já está em uso.", "This domain is already in use."),
  settingsUpdated: text("Configurações atualizadas com sucesso.", "Settings updated."),
  notificationSettings: text("Configurações de notificação.", "Notification settings."),
  members: text("Membros encontrados.", "Members found."),

  // profiles
  profileCreated: text("Perfil criado com sucesso.", "Profile created."),
  profileInvited: text("Convite enviado com sucesso.", "Invitation sent."),
  profileUpdated: text("Perfil atualizado com sucesso.", "Profile updated."),
  profileRemoved: text("Perfil removido com sucesso.", "Profile removed."),
  profiles: text("Perfis encontrados.", "Profiles found."),
  profileNotFound: text("Perfil não encontrado.", "Profile not found."),
  alreadyMember: text("Esta pessoa já é membro da comunidade.", "This person is already a member of the community."),
  ownRoleChange: text("Você não pode alterar a sua própria função.", "You cannot change your own role."),
  onlyOwnerManagesOwners: text(
    "Somente um proprietário (owner) pode conceder ou remover a função owner.",
    "Only an owner can grant or remove the owner role."
  ),
  adminsManageLowerRoles: text(
    "Administradores só gerenciam as funções moderator, member e finance.",
    "Admins only manage the moderator, member and finance roles."
  ),
  lastOwner: text(
    "A comunidade precisa manter pelo menos um proprietário (owner).",
    "The community must keep at least one owner."
  ),
  emailOfSharedAccount: text(
    "Esta conta participa de outras comunidades; só a própria pessoa pode alterar o e-mail de login.",
    "This account belongs to other communities; only its holder can change the login e-mail."
  ),
  tags: text("Tags encontradas.", "Tags found."),
  tagNotFound: text("Tag não encontrada.", "Tag not found."),
  tagRenamed: text("Tag renomeada com sucesso.", "Tag renamed."),
  tagRemoved: text("Tag removida com sucesso.", "Tag removed."),
  tagColorSet: text("Cor da tag definida com sucesso.", "Tag color set.")
} as const
