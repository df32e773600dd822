import { Effect, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { CommunityId } from "../../src/domain/Ids"
import { compileRowCheck } from "../../src/domain/rowCheck"
import { decodeRows } from "../../src/domain/Rows"

const Lesson = Schema.Struct({ id: Schema.String, done: Schema.Boolean })
const Row = Schema.Struct({
  communityId: CommunityId,
  name: Schema.String,
  count: Schema.Number,
  status: Schema.Literal("open", "closed"),
  note: Schema.NullOr(Schema.String),
  at: Schema.DateFromSelf,
  tags: Schema.Array(Schema.String),
  lessons: Schema.NullOr(Schema.Array(Lesson)),
  settings: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
const row = () => ({
  communityId: "01a24d36-a4f7-723b-a911-c0f9b172ffc1",
  name: "Ana",
  count: 3,
  status: "open",
  note: null,
  at: new Date("2026-12-06T00:00:00Z"),
  tags: ["a", "b"],
  lessons: [{ id: "l1", done: true }],
  settings: { timezone: "America/Sao_Paulo" }
})

describe("rows that already are what their schema decodes to", () => {
  const check = compileRowCheck(Row.ast)!

  it("pass the compiled check, and decode to themselves (the same objects)", async () => {
    const rows = [row(), { ...row(), lessons: null, status: "closed" }]
    expect(check(rows[0])).toBe(true)
    const decoded = await Effect.runPromise(decodeRows(Row)(rows))
    expect(decoded).toBe(rows)
    expect(decoded).toEqual(Schema.decodeUnknownSync(Schema.Array(Row))(rows))
  })

  it("fail it for every difference Schema would see, and then go through Schema", async () => {
    const wrong: ReadonlyArray<Record<string, unknown>> = [
      { ...row(), communityId: "not-a-uuid" },
      { ...row(), count: "3" },
      { ...row(), status: "other" },
      { ...row(), at: "2026-12-06" },
      { ...row(), tags: ["a", 1] },
      { ...row(), lessons: [{ id: "l1", done: "yes" }] },
      { ...row(), settings: null }
    ]
    for (const value of wrong) {
      expect(check(value), JSON.stringify(value)).toBe(false)
      await expect(Effect.runPromise(decodeRows(Row)([value]))).rejects.toThrow()
    }
    const { name: _, ...missing } = row()
    expect(check(missing)).toBe(false)
  })

  it("drops the columns the schema does not declare, at any depth, as Schema does", async () => {
    const extra = { ...row(), password: "secret", lessons: [{ id: "l1", done: true, secret: 1 }] }
    expect(check(extra)).toBe(true)
    const [decoded] = await Effect.runPromise(decodeRows(Row)([extra]))
    expect(decoded).not.toHaveProperty("password")
    expect(decoded!.lessons![0]).not.toHaveProperty("secret")
    expect(decoded).toEqual(row())
    expect(decoded).toEqual(Schema.decodeUnknownSync(Row)(extra))
  })

  it("is not made for a schema that transforms: Schema decodes those rows", async () => {
    const Transforming = Schema.Struct({ at: Schema.Date })
    expect(compileRowCheck(Transforming.ast)).toBeUndefined()
    const [decoded] = await Effect.runPromise(decodeRows(Transforming)([{ at: "2026-12-06T00:00:00Z" }]))
    expect(decoded!.at).toBeInstanceOf(Date)
  })
})
