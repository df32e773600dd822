import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { languageOf, same, text } from "../../src/domain/Text"

describe("languageOf", () => {
  it.effect.each(
    [
      [undefined, "pt"],
      ["", "pt"],
      ["pt", "pt"],
      ["pt-BR", "pt"],
      ["PT-br", "pt"],
      ["en", "en"],
      ["en-US", "en"],
      ["EN-gb", "en"],
      ["fr", "pt"],
      ["*", "pt"],
      ["fr-FR, en;q=0.5", "en"],
      ["de, fr;q=0.9", "pt"]
    ] as const
  )("%j -> %s", ([header, expected]) => Effect.sync(() => expect(languageOf(header)).toBe(expected)))

  it.effect.each(
    [
      ["en;q=0.5, pt;q=0.8", "pt"],
      ["pt;q=0.5, en;q=0.8", "en"],
      ["pt-BR;q=0.9, en-US", "en"],
      ["en-US;q=0.7, pt-BR", "pt"],
      [" en ; q=0.3 , pt ; q=0.2 ", "en"]
    ] as const
  )("ranks by q: %j -> %s", ([header, expected]) => Effect.sync(() => expect(languageOf(header)).toBe(expected)))

  it.effect.each(
    [
      ["en, pt", "en"],
      ["pt, en", "pt"],
      ["en;q=0.8, pt;q=0.8", "en"],
      ["pt;q=0.8, en;q=0.8", "pt"]
    ] as const
  )(
    "breaks ties by order: %j -> %s",
    ([header, expected]) => Effect.sync(() => expect(languageOf(header)).toBe(expected))
  )

  it.effect.each(
    [
      ["en;q=0", "pt"],
      ["en;q=0, pt", "pt"],
      ["pt;q=0, en", "en"],
      ["pt;q=0.0, en;q=0.1", "en"]
    ] as const
  )(
    "drops what q=0 refuses: %j -> %s",
    ([header, expected]) => Effect.sync(() => expect(languageOf(header)).toBe(expected))
  )
})

describe("Text", () => {
  it.effect("same() reads the same in both languages; text() keeps each", () =>
    Effect.sync(() => {
      expect(same("Authentication token is required")).toEqual({
        pt: "Authentication token is required",
        en: "Authentication token is required"
      })
      expect(text("Olá", "Hello")).toEqual({ pt: "Olá", en: "Hello" })
    }))
})
