import { describe, expect, it } from "vitest"
import { disputeTransition, type disputeTransitions } from "../../src/commerce/checkout/disputeStates"

describe("dispute transitions", () => {
  it("holds on opening, releases on a win, releases then takes back with the fee on a loss", () => {
    expect(disputeTransition("none", "opened")).toEqual({ to: "open", effects: ["hold", "mailOpened"] })
    expect(disputeTransition("open", "won")).toEqual({ to: "won", effects: ["release", "fee", "mailClosed"] })
    expect(disputeTransition("open", "lost")).toEqual({
      to: "lost",
      effects: ["release", "chargeback", "fee", "mailClosed"]
    })
  })

  it("books a close seen first without a hold, and never books anything twice", () => {
    expect(disputeTransition("none", "lost").effects).not.toContain("release")
    expect(disputeTransition("none", "won").effects).not.toContain("release")
    expect(disputeTransition("open", "opened").effects).toEqual([])
    for (const final of ["won", "lost"] as const) {
      for (const step of ["opened", "won", "lost"] as const) {
        expect(disputeTransition(final, step)).toEqual({ to: final, effects: [] })
      }
    }
  })

  it("books each effect at most once along any path", () => {
    const paths = [["opened", "won"], ["opened", "lost"], ["won", "opened"], ["lost", "opened", "lost"]] as const
    for (const path of paths) {
      let status: keyof typeof disputeTransitions = "none"
      const effects: Array<string> = []
      for (const step of path) {
        const move = disputeTransition(status, step)
        effects.push(...move.effects)
        status = move.to
      }
      expect(new Set(effects).size).toBe(effects.length)
    }
  })
})
