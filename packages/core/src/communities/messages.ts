import { coded, text } from "../domain/Text"

/** Messages of communities, their profiles, invitations and tags (Portuguese by default, English on request). */
export const communityMessages = coded({
  memberSuspended: (until: string) =>
    text(
      `Sua participação nesta comunidade está suspensa até ${until}: você pode ler, mas não publicar, comentar, reagir ou participar.`,
      `Your membership in this community is suspended until ${until}: you can read, but not post, comment, react or take part.`
    ),
  emailChangePending: text(
    "Enviamos um link de confirmação para o novo e-mail; o login muda quando ele for usado.",
    "A confirmation link was sent to the new e-mail; the login changes once it is used."
  ),
  emailOnlyByHolder: text(
    "Só a própria pessoa pode alterar o e-mail de login.",
    "Only the account holder can change the login e-mail."
  ),

  communityCreated: text("Comunidade criada com sucesso.", "Community created."),
  communityUpdated: text("Comunidade atualizada com sucesso.", "Community updated."),
  communityDeleted: text("Comunidade removida com sucesso.", "Community removed."),
  communities: text("Comunidades encontradas.", "Communities found."),
  domainTaken: text("Este domínio já está em uso.", "This domain is already in use."),
  settingsUpdated: text("Configurações atualizadas com sucesso.", "Settings updated."),
  notificationSettings: text("Configurações de notificação.", "Notification settings."),
  members: text("Membros encontrados.", "Members found."),

  profileCreated: text("Perfil criado com sucesso.", "Profile created."),
  profileInvited: text("Convite enviado com sucesso.", "Invitation sent."),
  profileUpdated: text("Perfil atualizado com sucesso.", "Profile updated."),
  profileRemoved: text("Perfil removido com sucesso.", "Profile removed."),
  profiles: text("Perfis encontrados.", "Profiles found."),
  profileNotFound: text("Perfil não encontrado.", "Profile not found."),
  alreadyMember: text("Esta pessoa já é membro da comunidade.", "This person is already a member of the community."),
  memberBanned: text(
    "Esta pessoa foi banida da comunidade: desfaça o banimento antes de adicioná-la ou convidá-la.",
    "This person is banned from the community: lift the ban before adding or inviting them."
  ),
  bannedSelf: text(
    "Você foi banido desta comunidade e não pode entrar nela.",
    "You are banned from this community and cannot join it."
  ),
  alreadyInvited: text(
    "Esta pessoa já foi convidada para a comunidade.",
    "This person has already been invited to the community."
  ),
  invitationAccepted: text("Convite aceito com sucesso.", "Invitation accepted."),
  invitationDeclined: text("Convite recusado.", "Invitation declined."),
  invitationNotFound: text("Convite não encontrado.", "Invitation not found."),
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
  tags: text("Tags encontradas.", "Tags found."),
  tagNotFound: text("Tag não encontrada.", "Tag not found."),
  tagRenamed: text("Tag renomeada com sucesso.", "Tag renamed."),
  tagRemoved: text("Tag removida com sucesso.", "Tag removed."),
  tagColorSet: text("Cor da tag definida com sucesso.", "Tag color set.")
})
