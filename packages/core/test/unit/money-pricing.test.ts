import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import type { AppError } from "../../src/domain/AppError"
import { CommunityId } from "../../src/domain/Ids"
import { formatMoney, type PaymentMethod, roundHalfEven } from "../../src/domain/Money"
import { isBalanced } from "../../src/money/ledger/Journal"
import {
  defaultFees,
  feesInForce,
  installmentAmount,
  platformFee,
  saleAmounts
} from "../../src/money/ledger/salePricing"

/**
 * Expected installments were computed apart from the code under test, with the textbook formula
 * `P·i / (1 − (1 + i)^−n)` in 80-digit decimal arithmetic, then rounded half-even; e.g. R$ 100,00
 * at 2.89 % in 2: 100 · 0.0289 / (1 − 1.0289^−2) = 52.1777914… → 52,18; in 12: 9.98035515… → 9,98.
 */
const table289: Record<number, ReadonlyArray<number>> = {
  10000: [10000, 5218, 3528, 2683, 2177, 1839, 1598, 1418, 1278, 1166, 1074, 998],
  4990: [4990, 2604, 1760, 1339, 1086, 918, 798, 708, 638, 582, 536, 498],
  12345: [12345, 6441, 4355, 3312, 2687, 2271, 1973, 1750, 1577, 1439, 1326, 1232],
  99999: [99999, 52177, 35278, 26832, 21767, 18392, 15984, 14179, 12777, 11657, 10742, 9980],
  1000000: [1000000, 521778, 352783, 268320, 217669, 183925, 159842, 141796, 127776, 116573, 107420, 99804],
  250: [250, 130, 88, 67, 54, 46, 40, 35, 32, 29, 27, 25]
}

const sale = (amount: number, paymentMethod: PaymentMethod, installments = 1, currency = "BRL") => ({
  communityId: CommunityId.make("00000000-0000-4000-8000-000000000000"),
  amount,
  currency,
  paymentMethod,
  installments
})

const priced = (amount: number, method: PaymentMethod, installments = 1) => {
  const result = saleAmounts(sale(amount, method, installments), defaultFees[method])
  if (Either.isLeft(result)) throw new Error(`refused: ${result.left.text.en}`)
  return result.right
}

const refusal = (amount: number, method: PaymentMethod, installments: number): AppError => {
  const result = saleAmounts(sale(amount, method, installments), defaultFees[method])
  if (Either.isRight(result)) throw new Error("expected a refusal")
  return result.left
}

describe("Price table at the default 2.89 % a month", () => {
  for (const [amount, expected] of Object.entries(table289)) {
    it(`installments of ${amount} for n = 1..12`, () => {
      const got = expected.map((_, index) => installmentAmount(Number(amount), 289, index + 1))
      expect(got).toEqual(expected)
    })
  }

  it("R$ 100,00 in 2 installments is 2 × R$ 52,18 (the issue's example)", () => {
    expect(priced(10000, "CREDIT_CARD", 2)).toEqual({
      amount: 10000,
      currency: "BRL",
      paymentMethod: "CREDIT_CARD",
      installments: 2,
      interestRateBps: 289,
      installmentAmount: 5218,
      total: 10436,
      interest: 436,
      feePercentBps: 499,
      feeFixed: 49,
      fee: 548,
      net: 9452
    })
  })

  it("no interest at one installment", () => {
    expect(priced(10000, "CREDIT_CARD", 1)).toMatchObject({
      interestRateBps: 0,
      installmentAmount: 10000,
      total: 10000,
      interest: 0
    })
  })

  it("total and interest follow the installment; the fee and net never depend on it", () => {
    for (let n = 1; n <= 12; n++) {
      const amounts = priced(10000, "CREDIT_CARD", n)
      expect(amounts.installmentAmount).toBe(table289[10000]![n - 1])
      expect(amounts.total).toBe(amounts.installmentAmount * n)
      expect(amounts.interest).toBe(amounts.total - 10000)
      expect({ fee: amounts.fee, net: amounts.net }).toEqual({ fee: 548, net: 9452 })
    }
  })
})

describe("Price table at other rates", () => {
  it("1.99 % and 10 % a month for R$ 100,00", () => {
    const at = (bps: number) => Array.from({ length: 12 }, (_, index) => installmentAmount(10000, bps, index + 1))
    expect(at(199)).toEqual([10000, 5150, 3467, 2626, 2121, 1785, 1545, 1365, 1225, 1113, 1021, 945])
    expect(at(1000)).toEqual([10000, 5762, 4021, 3155, 2638, 2296, 2054, 1874, 1736, 1627, 1540, 1468])
  })

  it("exact ties round half-even", () => {
    // 105 at 10 % in 2: 105 · 1.21 / 2.1 = 60.5 exactly
    expect(installmentAmount(105, 1000, 2)).toBe(60)
    // 1655 at 10 % in 3: 1655 · 0.1 · 1.331 / 0.331 = 665.5 exactly
    expect(installmentAmount(1655, 1000, 3)).toBe(666)
    // 10050 at 1 % in 2: 10050 · 1.0201 / 2.01 = 5100.5; 2525 at 2 %: 1300.5; 410 at 5 %: 220.5
    expect(installmentAmount(10050, 100, 2)).toBe(5100)
    expect(installmentAmount(2525, 200, 2)).toBe(1300)
    expect(installmentAmount(410, 500, 2)).toBe(220)
    // 264 at 6.25 % in 2: 264 · 1.0625² / 2.0625 = 144.5
    expect(installmentAmount(264, 625, 2)).toBe(144)
  })
})

describe("roundHalfEven", () => {
  it("rounds ties to the even neighbour and everything else to the nearest", () => {
    const cases: ReadonlyArray<[bigint, bigint, bigint]> = [
      [1n, 2n, 0n],
      [3n, 2n, 2n],
      [5n, 2n, 2n],
      [7n, 2n, 4n],
      [-1n, 2n, 0n],
      [-3n, 2n, -2n],
      [5n, 4n, 1n],
      [7n, 4n, 2n],
      [49n, 100n, 0n],
      [51n, 100n, 1n],
      [150n, 100n, 2n],
      [250n, 100n, 2n]
    ]
    for (const [numerator, denominator, expected] of cases) {
      expect([numerator, denominator, roundHalfEven(numerator, denominator)]).toEqual([
        numerator,
        denominator,
        expected
      ])
    }
  })
})

describe("platform fee", () => {
  it("default tables per method", () => {
    // amount → [CREDIT_CARD, PIX, BOLETO] as [fee, net]
    const expected: Record<number, Record<PaymentMethod, [number, number]>> = {
      10000: { CREDIT_CARD: [548, 9452], PIX: [199, 9801], BOLETO: [448, 9552] },
      4990: { CREDIT_CARD: [298, 4692], PIX: [99, 4891], BOLETO: [348, 4642] },
      12345: { CREDIT_CARD: [665, 11680], PIX: [246, 12099], BOLETO: [495, 11850] },
      99999: { CREDIT_CARD: [5039, 94960], PIX: [1990, 98009], BOLETO: [2239, 97760] },
      1000000: { CREDIT_CARD: [49949, 950051], PIX: [19900, 980100], BOLETO: [20149, 979851] },
      250: { CREDIT_CARD: [61, 189], PIX: [5, 245], BOLETO: [250, 0] },
      100: { CREDIT_CARD: [54, 46], PIX: [2, 98], BOLETO: [100, 0] },
      0: { CREDIT_CARD: [0, 0], PIX: [0, 0], BOLETO: [0, 0] }
    }
    for (const [amount, byMethod] of Object.entries(expected)) {
      for (const [method, [fee, net]] of Object.entries(byMethod)) {
        const amounts = priced(Number(amount), method as PaymentMethod)
        expect([amount, method, amounts.fee, amounts.net]).toEqual([amount, method, fee, net])
      }
    }
  })

  it("the percentage rounds half-even, then the fixed part is added", () => {
    expect(platformFee(50, { percentBps: 100, fixed: 0 })).toBe(0) // 0.5
    expect(platformFee(150, { percentBps: 100, fixed: 0 })).toBe(2) // 1.5
    expect(platformFee(250, { percentBps: 100, fixed: 10 })).toBe(12) // 2.5 → 2, + 10
    expect(platformFee(1000, { percentBps: 10000, fixed: 0 })).toBe(1000)
  })

  it("never takes more than the amount: net stays at 0", () => {
    expect(platformFee(100, { percentBps: 199, fixed: 249 })).toBe(100)
    expect(priced(100, "BOLETO")).toMatchObject({ fee: 100, net: 0 })
  })

  it("an override replaces the default; its interest only counts for cards", () => {
    expect(feesInForce("PIX", undefined)).toEqual(defaultFees.PIX)
    expect(feesInForce("CREDIT_CARD", { percentBps: 100, fixed: 0, interestRateBps: null })).toEqual({
      percentBps: 100,
      fixed: 0,
      interestRateBps: 289
    })
    expect(feesInForce("CREDIT_CARD", { percentBps: 100, fixed: 5, interestRateBps: 199 }).interestRateBps).toBe(199)
    expect(feesInForce("BOLETO", { percentBps: 0, fixed: 300, interestRateBps: null })).toEqual({
      percentBps: 0,
      fixed: 300,
      interestRateBps: 0
    })
  })
})

describe("installment rules", () => {
  it("more than one installment only on cards", () => {
    for (const method of ["PIX", "BOLETO"] as const) {
      const error = refusal(10000, method, 2)
      expect(error.status).toBe(400)
      expect(error.errors?.[0]?.param).toBe("installments")
    }
  })

  it("1..12 installments", () => {
    for (const installments of [0, 13, 1.5, -1]) {
      expect(refusal(10000, "CREDIT_CARD", installments).errors?.[0]?.param).toBe("installments")
    }
  })

  it("an amount too small to split is refused rather than charged below its price", () => {
    // 1 cent in 3 at 2.89 %: 0.34 → 0 a month
    expect(refusal(1, "CREDIT_CARD", 3).errors?.[0]?.param).toBe("installments")
    // 23 cents in 11: 2.0599… → 2, 22 < 23
    expect(refusal(23, "CREDIT_CARD", 11).errors?.[0]?.param).toBe("installments")
    expect(priced(23, "CREDIT_CARD", 10).total).toBeGreaterThanOrEqual(23)
  })

  it("amounts are whole non-negative minor units", () => {
    for (const amount of [-1, 1.5, Number.NaN, 1e12]) {
      expect(refusal(amount, "PIX", 1).errors?.[0]?.param).toBe("amount")
    }
  })
})

describe("formatMoney", () => {
  it("writes minor units with the currency's decimals", () => {
    expect(formatMoney(1234, "BRL")).toBe("12.34 BRL")
    expect(formatMoney(5, "BRL")).toBe("0.05 BRL")
    expect(formatMoney(0, "USD")).toBe("0.00 USD")
    expect(formatMoney(-1234, "EUR")).toBe("-12.34 EUR")
    expect(formatMoney(100000000, "BRL")).toBe("1000000.00 BRL")
    expect(formatMoney(1234, "CLP")).toBe("1234 CLP")
    expect(formatMoney(500, "JPY")).toBe("500 JPY")
  })
})

describe("ledger balance check", () => {
  it("every currency must sum to zero", () => {
    expect(isBalanced([
      { account: "buyer_payments", currency: "BRL", amount: -10436 },
      { account: "platform_fees", currency: "BRL", amount: 548 },
      { account: "platform_interest", currency: "BRL", amount: 436 },
      { account: "community_pending", currency: "BRL", amount: 9452 }
    ])).toBe(true)
    expect(isBalanced([
      { account: "community_pending", currency: "BRL", amount: -100 },
      { account: "community_available", currency: "USD", amount: 100 }
    ])).toBe(false)
  })
})
