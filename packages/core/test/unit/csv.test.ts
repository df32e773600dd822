import { describe, expect, it } from "vitest"
import { csvField, csvLine } from "../../src/domain/Csv"

describe("csvField", () => {
  it("neutralises text a spreadsheet would run as a formula", () => {
    expect(csvField("=HYPERLINK(\"http://evil.example\")")).toBe("\"'=HYPERLINK(\"\"http://evil.example\"\")\"")
    expect(csvField("+1")).toBe("'+1")
    expect(csvField("-1+1")).toBe("'-1+1")
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)")
    expect(csvField("\tx")).toBe("'\tx")
    expect(csvField("\rx")).toBe("\"'\rx\"")
  })

  it("keeps other text, numbers and booleans as they are, quoting per RFC 4180", () => {
    expect(csvField("Ana - Souza")).toBe("Ana - Souza")
    expect(csvField(" =1")).toBe(" =1")
    expect(csvField(-4000)).toBe("-4000")
    expect(csvField(true)).toBe("true")
    expect(csvField(null)).toBe("")
    expect(csvField(undefined)).toBe("")
    expect(csvField("a,\"b\"")).toBe("\"a,\"\"b\"\"\"")
    expect(csvLine(["x", 1, null])).toBe("x,1,\r\n")
  })
})
