import { describe, expect, it } from "@effect/vitest"
import { TextTable } from "@roda/sql-pglite"

const built = (...parts: Array<string>) => parts.join("")

describe("TextTable", () => {
  it("finds a text built afresh, and tells apart texts of the same length", () => {
    const table = TextTable.make<number>()
    table.set(built("SELECT ", "a"), 1)
    table.set(built("SELECT ", "b"), 2)
    expect(table.get("SELECT a")).toBe(1)
    expect(table.get("SELECT b")).toBe(2)
    expect(table.get("SELECT c")).toBeUndefined()
    expect(table.get("SELECT")).toBeUndefined()
    expect(table.size()).toBe(2)
  })

  it("replaces, deletes and clears", () => {
    const table = TextTable.make<string>()
    table.set("x", "one")
    table.set("x", "two")
    expect(table.size()).toBe(1)
    expect(table.get("x")).toBe("two")
    table.set("y", "other")
    table.delete("x")
    table.delete("never there")
    expect(table.get("x")).toBeUndefined()
    expect(table.get("y")).toBe("other")
    expect(table.size()).toBe(1)
    table.clear()
    expect(table.get("y")).toBeUndefined()
    expect(table.size()).toBe(0)
  })
})
