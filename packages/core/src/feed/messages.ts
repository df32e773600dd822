import { coded, text } from "../domain/Text"

/** Messages of the feed (Portuguese by default, English on request). */
export const feedMessages = coded({
  feed: text("Feed carregado.", "Feed loaded."),
  feedStats: text("Estatísticas do feed.", "Feed statistics."),
  feedRecommendations: text("Recomendações encontradas.", "Recommendations found."),
  feedItemNotFound: text("Item do feed não encontrado.", "Feed item not found."),
  feedItemPinned: text("Item fixado com sucesso.", "Item pinned."),
  feedItemUnpinned: text("Item desafixado com sucesso.", "Item unpinned.")
})
