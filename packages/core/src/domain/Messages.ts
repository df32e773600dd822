import type { Text } from "./Text"
import { coded, same, text } from "./Text"

/**
 * The message catalogue. Strings of spec §7 are verbatim in `pt` (the default language);
 * English-only strings of the spec read the same in both languages.
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
  emailConfirmed: text("E-mail confirmado com sucesso.", "E-mail confirmed."),
  verificationSent: text(
    "Se o e-mail ainda não foi confirmado, enviamos um link de confirmação.",
    "If the e-mail is not confirmed yet, a confirmation link has been sent."
  ),
  /** Not in spec §7: the gates of a verified e-mail (issue 52), see `requireVerifiedEmail`. */
  emailNotVerified: text(
    "Confirme seu e-mail antes: use o link que enviamos (ou peça outro em POST /api/auth/verify-email).",
    "Confirm your e-mail first: use the link we sent (or ask for another with POST /api/auth/verify-email)."
  ),
  emailChangePending: text(
    "Enviamos um link de confirmação para o novo e-mail; o login muda quando ele for usado.",
    "A confirmation link was sent to the new e-mail; the login changes once it is used."
  ),
  emailOnlyByHolder: text(
    "Só a própria pessoa pode alterar o e-mail de login.",
    "Only the account holder can change the login e-mail."
  ),

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
  tagColorSet: text("Cor da tag definida com sucesso.", "Tag color set."),
  // sections and spaces (spec §7 strings verbatim)
  sectionOfSpaceNotFound: text(
    "Seção não encontrada ou não pertence a esta comunidade.",
    "Section not found or does not belong to this community."
  ),
  spaceMoreOpen: (section: string, visibility: string): Text =>
    same(`This space cannot be more open than the section "${section}" (${visibility}).`),
  sectionMoreClosed: (section: string, visibility: string, space: string, spaceVisibility: string): Text =>
    same(
      `This space cannot be more open than the section "${section}" (${visibility}): space "${space}" is ${spaceVisibility}.`
    ),
  accessGrantUnknown: (id: string): Text => same(`The access grant ${id} does not exist in this community.`),
  sectionNotFound: text("Seção não encontrada.", "Section not found."),
  sectionHasSpaces: text(
    "Esta seção ainda tem espaços: mova-os ou remova-os antes de remover a seção.",
    "This section still has spaces: move or remove them before removing the section."
  ),
  spaceUnknown: text("Espaço não encontrado.", "Space not found."),
  spaceContentForbidden: text(
    "Você não tem acesso ao conteúdo deste espaço.",
    "You do not have access to this space's content."
  ),
  spaceHasContent: text(
    "Este espaço ainda tem conteúdo (por exemplo, cursos): remova-o antes de remover o espaço.",
    "This space still has content (for example, courses): remove it before removing the space."
  ),
  sectionsReorderMismatch: text(
    "A lista deve conter cada seção da comunidade exatamente uma vez.",
    "ids must list every section of the community exactly once."
  ),
  spacesReorderMismatch: text(
    "A lista deve conter cada espaço da seção exatamente uma vez.",
    "ids must list every space of the section exactly once."
  ),
  sections: text("Seções encontradas.", "Sections found."),
  section: text("Seção encontrada.", "Section found."),
  sectionCreated: text("Seção criada com sucesso.", "Section created."),
  sectionUpdated: text("Seção atualizada com sucesso.", "Section updated."),
  sectionRemoved: text("Seção removida com sucesso.", "Section removed."),
  sectionsReordered: text("Seções reordenadas com sucesso.", "Sections reordered."),
  spaces: text("Espaços encontrados.", "Spaces found."),
  space: text("Espaço encontrado.", "Space found."),
  spaceCreated: text("Espaço criado com sucesso.", "Space created."),
  spaceUpdated: text("Espaço atualizado com sucesso.", "Space updated."),
  spaceRemoved: text("Espaço removido com sucesso.", "Space removed."),
  spacesReordered: text("Espaços reordenados com sucesso.", "Spaces reordered."),
  spaceModules: text("Módulos de espaço disponíveis.", "Available space modules."),
  // courses (spec §7 strings verbatim)
  spaceIdRequired: text("ID do espaço é obrigatório.", "Space ID is required."),
  spaceNotFound: text(
    "Espaço não encontrado ou não pertence a esta comunidade.",
    "Space not found or does not belong to this community."
  ),
  courseNotFound: text("Curso não encontrado.", "Course not found."),
  moduleNotFound: same("Module not found"),
  invalidCourseId: same("Valid course ID is required"),
  lessonNotFound: text("Aula não encontrada.", "Lesson not found."),
  notACoursesSpace: text(
    "Este espaço não é um espaço de cursos (module courses).",
    "This space is not a courses space (module courses)."
  ),
  courseStatusMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar o status do curso de ${from} para ${to}. Movimentos permitidos: ${
        allowed.length > 0 ? allowed.join(", ") : "nenhum"
      }.`,
      `The course status cannot change from ${from} to ${to}. Allowed moves: ${
        allowed.length > 0 ? allowed.join(", ") : "none"
      }.`
    ),
  lessonOtherCourse: text(
    "A aula só pode ser movida para um módulo do mesmo curso.",
    "A lesson can only move to a module of the same course."
  ),
  lessonContentBlank: (field: string): Text =>
    text(`${field} não pode ficar em branco.`, `${field} must not be blank.`),
  fieldAliasDisagrees: (field: string, alias: string): Text =>
    text(
      `${field} e ${alias} são o mesmo campo: envie apenas um, ou o mesmo valor nos dois.`,
      `${field} and ${alias} are the same field: send one of them, or the same value in both.`
    ),
  courseNotPublished: text(
    "Só é possível se inscrever em um curso publicado.",
    "Only a published course accepts enrollments."
  ),
  enrollmentRequired: text(
    "Inscreva-se no curso antes de registrar progresso.",
    "Enroll in the course before recording progress."
  ),
  lessonLocked: (availableAt: string): Text =>
    text(`Esta aula será liberada em ${availableAt}.`, `This lesson is released on ${availableAt}.`),
  progressEmpty: text(
    "Envie completed, percent ou lastPositionSeconds.",
    "Send completed, percent or lastPositionSeconds."
  ),
  courseCreated: text("Curso criado com sucesso.", "Course created."),
  courseUpdated: text("Curso atualizado com sucesso.", "Course updated."),
  courseDeleted: text("Curso removido com sucesso.", "Course removed."),
  courses: text("Cursos encontrados.", "Courses found."),
  course: text("Curso encontrado.", "Course found."),
  moduleCreated: text("Módulo criado com sucesso.", "Module created."),
  moduleUpdated: text("Módulo atualizado com sucesso.", "Module updated."),
  moduleDeleted: text("Módulo removido com sucesso.", "Module removed."),
  lessonCreated: text("Aula criada com sucesso.", "Lesson created."),
  lessonUpdated: text("Aula atualizada com sucesso.", "Lesson updated."),
  lessonDeleted: text("Aula removida com sucesso.", "Lesson removed."),
  enrolled: text("Inscrição realizada com sucesso.", "Enrolled."),
  alreadyEnrolled: text("Você já está inscrito neste curso.", "You are already enrolled in this course."),
  progressRecorded: text("Progresso registrado com sucesso.", "Progress recorded."),
  // events
  eventNotFound: text("Evento não encontrado.", "Event not found."),
  invalidEventId: same("Valid event ID is required"),
  notAnEventsSpace: text(
    "Este espaço não é um espaço de eventos (module events).",
    "This space is not an events space (module events)."
  ),
  eventTimesOrder: text(
    "O início do evento (startTime) deve ser anterior ao fim (endTime).",
    "The event's startTime must be before its endTime."
  ),
  eventAddressRequired: text(
    "Eventos presenciais precisam de endereço (address).",
    "In-person events need an address."
  ),
  eventAddressPartRequired: (part: string): Text =>
    text(
      `address.${part} é obrigatório para eventos presenciais.`,
      `address.${part} is required for in-person events.`
    ),
  eventCategoryUnknown: (id: string): Text =>
    text(
      `Categoria de evento desconhecida: ${id}. Veja GET /api/events/categories.`,
      `Unknown event category: ${id}. See GET /api/events/categories.`
    ),
  eventCapacityBelowGoing: (going: number): Text =>
    text(
      `A capacidade não pode ser menor que o número de participantes confirmados (${going}).`,
      `The capacity cannot be lower than the number of people going (${going}).`
    ),
  eventHostOrStaff: text(
    "Apenas o anfitrião do evento ou owner, admin ou moderator podem fazer isso.",
    "Only the event's host or an owner, admin or moderator may do this."
  ),
  streamStatusMove: (from: string, to: string, allowed: ReadonlyArray<string>): Text =>
    text(
      `Não é possível mudar a transmissão de ${from} para ${to}. Movimentos permitidos: ${
        allowed.length > 0 ? allowed.join(", ") : "nenhum"
      }.`,
      `The stream cannot move from ${from} to ${to}. Allowed moves: ${
        allowed.length > 0 ? allowed.join(", ") : "none"
      }.`
    ),
  eventCategories: text("Categorias de eventos.", "Event categories."),
  events: text("Eventos encontrados.", "Events found."),
  event: text("Evento encontrado.", "Event found."),
  eventCreated: text("Evento criado com sucesso.", "Event created."),
  eventUpdated: text("Evento atualizado com sucesso.", "Event updated."),
  eventDeleted: text("Evento removido com sucesso.", "Event removed."),
  participationGoing: text("Presença confirmada.", "You are going."),
  participationWaitlisted: text(
    "Evento lotado: você está na lista de espera.",
    "The event is full: you are on the waitlist."
  ),
  participationCancelled: text("Participação cancelada.", "Participation cancelled."),
  participants: text("Participantes encontrados.", "Participants found."),
  streamStarted: text("Transmissão iniciada.", "Stream started."),
  streamStopped: text("Transmissão encerrada.", "Stream stopped."),
  // feed and search
  feed: text("Feed carregado.", "Feed loaded."),
  feedStats: text("Estatísticas do feed.", "Feed statistics."),
  feedRecommendations: text("Recomendações encontradas.", "Recommendations found."),
  feedItemNotFound: text("Item do feed não encontrado.", "Feed item not found."),
  feedItemPinned: text("Item fixado com sucesso.", "Item pinned."),
  feedItemUnpinned: text("Item desafixado com sucesso.", "Item unpinned."),
  searchResults: text("Resultados da busca.", "Search results."),
  // status posts, comments, reactions and content posts
  statusNotFound: text("Publicação não encontrada.", "Status post not found."),
  contentNotFound: text("Conteúdo não encontrado.", "Content post not found."),
  commentNotFound: text("Comentário não encontrado.", "Comment not found."),
  socialItemNotFound: text("Item não encontrado.", "Item not found."),
  authorOrStaffRequired: (role: string): Text =>
    text(
      `Apenas o autor ou owner, admin ou moderator podem alterar isto. Sua função: ${role}`,
      `Only the author or an owner, admin or moderator may change this. Your role: ${role}`
    ),
  replyDepth: text(
    "Respostas têm um só nível: responda ao comentário principal.",
    "Replies are one level deep: reply to the top-level comment."
  ),
  parentOtherItem: text(
    "O comentário respondido pertence a outro item.",
    "The comment replied to belongs to another item."
  ),
  notAFeedSpace: text(
    "Este espaço não é um espaço de feed (module feed).",
    "This space is not a feed space (module feed)."
  ),
  postingStaffOnly: text(
    "Neste espaço, só owner, admin ou moderator podem publicar.",
    "Only an owner, admin or moderator may post in this space."
  ),
  statusPosts: text("Publicações encontradas.", "Status posts found."),
  statusCreated: text("Publicação criada com sucesso.", "Status post created."),
  statusUpdated: text("Publicação atualizada com sucesso.", "Status post updated."),
  statusDeleted: text("Publicação removida com sucesso.", "Status post removed."),
  reactionSaved: text("Reação registrada.", "Reaction saved."),
  reactionRemoved: text("Reação removida.", "Reaction removed."),
  comments: text("Comentários encontrados.", "Comments found."),
  commentCreated: text("Comentário criado com sucesso.", "Comment created."),
  commentUpdated: text("Comentário atualizado com sucesso.", "Comment updated."),
  commentDeleted: text("Comentário removido com sucesso.", "Comment removed."),
  contentCreated: text("Conteúdo publicado com sucesso.", "Content post created."),
  content: text("Conteúdo encontrado.", "Content post found."),
  // selling (spec §7 strings verbatim; feature messages live in each commerce/money folder)
  productNotFound: same("Product not found"),
  addOnUnknown: same("One of the add-ons does not exist in this community or was deleted."),
  addOnIsBillingOption: same("A product that is a plan's billing option cannot be another plan's add-on."),
  paymentNotConfigured: same("Payment configuration has not been set up for this community"),
  publishNeedsApprovedBusiness: same(
    "To publish and start selling, the community needs approved business information. Submit it for review and publish once it is approved."
  ),
  productCurrencyMismatch: (productCurrency: string, approvedCurrency: string): Text =>
    same(
      `This product is priced in ${productCurrency}, but the approved business information uses ${approvedCurrency}`
    ),
  checkoutNeedsApprovedBusiness: same("Community must have approved business information to enable paid products"),
  platformAdminRequired: text(
    "Apenas operadores da plataforma (SuperAdmin) podem fazer isto.",
    "Only platform operators (SuperAdmin) may do this."
  )
})
