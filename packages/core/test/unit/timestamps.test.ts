import pg from "pg"
import { describe, expect, it } from "vitest"
import { isoTimestamptz, timestamptzParser } from "../../node/sql/timestamps"

/** node-postgres's own timestamptz parser (postgres-date): what Roda read before, and its fallback. */
const driver = pg.types.getTypeParser(1184, "text") as (text: string) => Date | number | null
const parse = timestamptzParser(driver)

// A small deterministic generator, so that a failure names a value that can be tried again.
let seed = 11
const random = (n: number) => {
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n
}
const pad = (value: number, width = 2) => String(value).padStart(width, "0")

/** A timestamptz as PostgreSQL writes it with DateStyle ISO, in some time zone. */
const written = () => {
  const fraction = random(7)
  const digits = Array.from({ length: fraction }, () => random(10)).join("")
  const zone = [
    `${pad(random(15))}`,
    `${pad(random(15))}:${pad([0, 30, 45][random(3)]!)}`,
    `${pad(random(15))}:${pad(random(60))}:${pad(random(60))}`
  ][random(3)]!
  return `${1000 + random(9000)}-${pad(1 + random(12))}-${pad(1 + random(28))} ${pad(random(24))}:${pad(random(60))}:${
    pad(random(60))
  }${fraction === 0 ? "" : `.${digits}`}${random(2) === 0 ? "+" : "-"}${zone}`
}

describe("timestamptz parsing", () => {
  it("reads what PostgreSQL writes as node-postgres's parser does, to the millisecond", () => {
    const samples = [
      "2026-12-02 10:13:54.546123+00",
      "2026-12-02 07:13:54.5+05:30",
      "1999-12-31 23:59:59.999999-03",
      "1883-11-18 12:03:58-04:56:02",
      "2000-02-29 00:00:00+00",
      ...Array.from({ length: 20_000 }, written)
    ]
    for (const text of samples) {
      const fast = isoTimestamptz(text)
      expect(fast, text).toBeInstanceOf(Date)
      expect(fast!.getTime(), text).toBe((driver(text) as Date).getTime())
    }
  })

  it("leaves every other form to the fallback", () => {
    const others = [
      "infinity",
      "-infinity",
      "0099-01-01 00:00:00+00",
      "0999-06-15 12:00:00+00",
      "2020-01-01 00:00:00+00 BC",
      "12020-01-01 00:00:00+00",
      "2020-01-01 00:00:00Z",
      "2020-01-01 00:00:00.+00",
      "2020-01-01 00:00:00+0a",
      "2020-01-01T00:00:00+00",
      "2020-01-01 00:00:00+00:3",
      "2020-01-01"
    ]
    for (const text of others) {
      expect(isoTimestamptz(text), text).toBeUndefined()
      expect(parse(text), text).toEqual(driver(text))
    }
  })
})
