import { describe, expect, it } from "@effect/vitest"
import { HotTexts } from "@roda/sql-pglite"

describe("HotTexts", () => {
  it("a text is hot on its third sending, then counted afresh", () => {
    const hot = HotTexts.make()
    const text = "SELECT * FROM posts WHERE id = $1"
    expect([1, 2, 3, 4, 5, 6].map(() => hot.sent(text))).toEqual([false, false, true, false, false, true])
    expect(HotTexts.HOT_AFTER).toBe(3)
  })

  it("counts each text apart, built anew or not", () => {
    const hot = HotTexts.make()
    const a = ["SELECT ", "1"].join("")
    expect(hot.sent(a)).toBe(false)
    expect(hot.sent("SELECT 2")).toBe(false)
    expect(hot.sent(["SELECT ", "1"].join(""))).toBe(false)
    expect(hot.sent("SELECT 1")).toBe(true)
    expect(hot.sent("SELECT 2")).toBe(false)
  })

  it("forgets the counts past 10,000 texts seen once, so one-off texts cannot pile up", () => {
    const hot = HotTexts.make()
    hot.sent("kept?")
    hot.sent("kept?")
    for (let i = 0; i < 10_000; i++) hot.sent(`one-off ${i}`)
    // The counts were cleared when the table was full: "kept?" starts again from one.
    expect(hot.sent("kept?")).toBe(false)
  })
})
