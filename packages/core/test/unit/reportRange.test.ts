import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { MAX_PERIODS, periodCount, periodLabels, rangeOf } from "../../src/reports/range"

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)

describe("report ranges", () => {
  it("count periods by arithmetic exactly as the labels enumerate them", () => {
    // Every interval, across month ends, leap days and weeks that start before `from`.
    let seed = 7
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647
    for (let i = 0; i < 300; i++) {
      const start = Date.UTC(1999, 0, 1) + Math.floor(random() * 40 * 365) * 86_400_000
      const from = day(start)
      const to = day(start + Math.floor(random() * 800) * 86_400_000)
      for (const interval of ["day", "week", "month"] as const) {
        const range = { from, to, interval, timeZone: "UTC" }
        expect(periodCount(range), `${from}..${to} by ${interval}`).toBe(periodLabels(range).length)
      }
    }
  })

  it("refuses the widest range without enumerating it", async () => {
    const started = performance.now()
    const error = await Effect.runPromise(
      Effect.flip(rangeOf({ from: "0001-01-01", to: "9999-12-31", interval: "month" }))
    )
    expect(performance.now() - started).toBeLessThan(50)
    expect(JSON.stringify(error)).toContain("the range must not span more than 10 years")
  })

  it("accepts ten years by month and refuses them by day", async () => {
    const ok = await Effect.runPromise(rangeOf({ from: "2016-01-01", to: "2025-12-31", interval: "month" }))
    expect(ok.labels).toHaveLength(120)
    const error = await Effect.runPromise(
      Effect.flip(rangeOf({ from: "2016-01-01", to: "2025-12-31", interval: "day" }))
    )
    expect(JSON.stringify(error)).toContain(`more than ${MAX_PERIODS} periods`)
  })
})
