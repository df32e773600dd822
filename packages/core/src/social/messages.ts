import { coded, type Text, text } from "../domain/Text"

/** Messages of status posts, comments, reactions and content posts (Portuguese by default, English on request). */
export const socialMessages = coded({
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
  comments: text("Comentários encontrados.", "Comments found."),
  commentUpdated: text("Comentário atualizado com sucesso.", "Comment updated."),
  commentDeleted: text("Comentário removido com sucesso.", "Comment removed."),
  contentCreated: text("Conteúdo publicado com sucesso.", "Content post created."),
  content: text("Conteúdo encontrado.", "Content post found.")
})
