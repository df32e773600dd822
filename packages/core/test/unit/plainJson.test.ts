import { describe, expect, it } from "@effect/vitest"
import { Schema } from "effect"
import { Page } from "../../src/domain/Envelope"
import { FeedPage } from "../../src/feed/Api"
import { notPlain, plainJson } from "../../src/http/engine/PlainJson"

describe("plainJson", () => {
  it("takes schemas whose encoded form is their type", () => {
    const Item = Schema.Struct({
      name: Schema.String,
      count: Schema.Number,
      flag: Schema.Boolean,
      kind: Schema.Literal("a", "b"),
      note: Schema.NullOr(Schema.String),
      tags: Schema.Array(Schema.String),
      byType: Schema.Record({ key: Schema.String, value: Schema.Number }),
      pair: Schema.Tuple(Schema.String, Schema.Number)
    })
    expect(notPlain(Page(Item).ast)).toBeUndefined()
    expect(notPlain(FeedPage.ast)).toBeUndefined()
    expect(() => plainJson(FeedPage)).not.toThrow()
  })

  it("refuses, when the route is defined, schemas that transform or check more than their type", () => {
    expect(notPlain(Schema.Struct({ at: Schema.Date }).ast)).toMatch(/^at: a (Transformation|Refinement)/)
    expect(notPlain(Schema.Struct({ n: Schema.Int }).ast)).toMatch(/^n: a Refinement/)
    expect(notPlain(Schema.Struct({ list: Schema.Array(Schema.NumberFromString) }).ast)).toMatch(/^list: /)
    expect(notPlain(Schema.Struct({ id: Schema.optional(Schema.String) }).ast)).toMatch(/^id: /)
    expect(() => plainJson(Schema.Struct({ at: Schema.Date }))).toThrow(/not plain at at:/)
  })
})
