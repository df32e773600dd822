import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import {
  allowedSubmissionMoves,
  checkSubmissionMove,
  submissionMoves,
  submissionStatuses
} from "../../src/call4papers/submissions/Policy"

/** design/states.md "Call for papers", written out: state -> move -> next state. */
const expected: Record<string, Record<string, string>> = {
  rascunho: { edit: "rascunho", submit: "enviada", withdraw: "retirada" },
  enviada: {
    withdraw: "retirada",
    "counter-offer": "em_negociacao",
    decline: "recusada",
    "decide:accept": "aceita",
    "decide:refuse": "recusada"
  },
  em_negociacao: {
    withdraw: "retirada",
    "counter-offer": "em_negociacao",
    "counter-offer/retract": "enviada",
    "speaker-counter": "em_negociacao",
    accept: "aceita",
    decline: "recusada",
    "decide:accept": "aceita",
    "decide:refuse": "recusada"
  },
  aceita: { confirm: "confirmada" },
  recusada: {},
  retirada: {},
  confirmada: {}
}

describe("submission transition table", () => {
  for (const from of submissionStatuses) {
    it(`${from}: every move allowed or refused with 409 and the allowed moves`, () => {
      expect(allowedSubmissionMoves(from)).toEqual(submissionMoves.filter((move) => expected[from]![move]))
      for (const move of submissionMoves) {
        const result = Effect.runSync(Effect.either(checkSubmissionMove(from, move)))
        const to = expected[from]![move]
        if (to !== undefined) {
          expect(result).toEqual(Either.right(to))
        } else {
          expect(Either.isLeft(result)).toBe(true)
          const error = Either.getLeft(result).pipe((o) => (o._tag === "Some" ? o.value : undefined))!
          expect(error.status).toBe(409)
          expect(error.errors?.[0]?.param).toBe("status")
          const allowed = allowedSubmissionMoves(from)
          expect(error.text.en).toContain(allowed.length ? allowed.join(", ") : "none")
        }
      }
    })
  }
})
