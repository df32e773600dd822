import { coded, text } from "../domain/Text"

/** Messages of search (Portuguese by default, English on request). */
export const searchMessages = coded({
  searchResults: text("Resultados da busca.", "Search results.")
})
