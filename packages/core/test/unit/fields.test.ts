import { Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { HttpUrl, Instant } from "../../src/domain/Fields"

const accepts = <A, I>(schema: Schema.Schema<A, I>, value: unknown) =>
  Either.isRight(Schema.decodeUnknownEither(schema)(value))

describe("Instant", () => {
  it("takes RFC 3339 instants with an offset in the years 0001 to 9999", () => {
    for (
      const value of [
        "2030-05-01T19:00:00Z",
        "2030-05-01T19:00Z",
        "2030-02-28T23:59:59.999999-03:00",
        "2028-02-29T00:00:00+05:30",
        "0050-05-01T19:00:00Z"
      ]
    ) expect(accepts(Instant, value), value).toBe(true)
  })

  it("refuses a day or an hour the calendar does not have, which JavaScript would roll into another date", () => {
    for (
      const value of [
        "2030-02-30T10:00:00Z",
        "2030-02-29T10:00:00Z",
        "2030-04-31T00:00:00+03:00",
        "2030-13-01T10:00:00Z",
        "2030-01-01T24:00:00Z",
        "2030-01-01T23:60:00Z",
        "2030-01-01T10:00:00",
        "0000-12-31T23:00:00Z"
      ]
    ) expect(accepts(Instant, value), value).toBe(false)
  })
})

describe("HttpUrl", () => {
  it("takes http(s) URLs and refuses white space and control characters anywhere in them", () => {
    expect(accepts(HttpUrl, "https://meet.example/room?x=1#a")).toBe(true)
    for (
      const value of [
        "https://a.example/\rBEGIN:VALARM",
        "https://a.example/\u0007",
        "https://a.example/\u007f",
        "ftp://a"
      ]
    ) {
      expect(accepts(HttpUrl, value), JSON.stringify(value)).toBe(false)
    }
  })
})
