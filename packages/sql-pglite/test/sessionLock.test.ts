import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { makeSessionLock } from "../src/internal/sessionLock"

/** Lets every forked fiber run until it waits. */
const settle = Effect.repeatN(Effect.yieldNow(), 20)

describe("session lock", () => {
  it.effect("serves waiters in the order they came", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      const served: Array<number> = []
      const gate = yield* Deferred.make<void>()
      const first = yield* Effect.fork(lock.withSession(Deferred.await(gate)))
      yield* settle
      const waiting = yield* Effect.forEach(
        Array.from({ length: 30 }, (_, i) => i),
        (i) => Effect.fork(lock.withSession(Effect.sync(() => served.push(i)))),
        { concurrency: 1 }
      )
      yield* settle
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(first)
      yield* Effect.forEach(waiting, Fiber.join)
      expect(served).toEqual(Array.from({ length: 30 }, (_, i) => i))
    }))

  it.effect("a caller that releases and asks again goes behind those already waiting", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      const turns: Array<string> = []
      const turn = (who: string) =>
        lock.withSession(Effect.zipRight(Effect.sync(() => turns.push(who)), Effect.yieldNow()))
      const busy = yield* Effect.fork(Effect.forEach(Array.from({ length: 20 }), () => turn("busy"), { discard: true }))
      yield* Effect.yieldNow()
      const other = yield* Effect.fork(turn("other"))
      yield* Fiber.join(busy)
      yield* Fiber.join(other)
      // With Effect's semaphore the busy caller took the session back at once, 20 times in a row,
      // while the other one, woken, found it taken and went to the back of the queue.
      expect(turns.indexOf("other")).toBeLessThanOrEqual(2)
    }))

  it.effect("a waiter interrupted in the queue leaves it; the session goes to the next", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      const gate = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(lock.withSession(Deferred.await(gate)))
      yield* settle
      const leaving = yield* Effect.fork(lock.withSession(Effect.succeed("leaving")))
      const staying = yield* Effect.fork(lock.withSession(Effect.succeed("staying")))
      yield* settle
      yield* Fiber.interrupt(leaving)
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(holder)
      expect(yield* Fiber.join(staying)).toBe("staying")
      expect(yield* lock.withSession(Effect.succeed("free again"))).toBe("free again")
    }))

  it.effect("a holder interrupted mid-work releases the session", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      const holder = yield* Effect.fork(lock.withSession(Effect.never))
      yield* settle
      const next = yield* Effect.fork(lock.withSession(Effect.succeed("next")))
      yield* settle
      yield* Fiber.interrupt(holder)
      expect(yield* Fiber.join(next)).toBe("next")
    }))

  it.effect("a waiter interrupted as the session is handed to it passes it on", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      yield* Effect.uninterruptibleMask(lock.acquire)
      const waiter = yield* Effect.fork(lock.withSession(Effect.never))
      const after = yield* Effect.fork(lock.withSession(Effect.succeed("after")))
      yield* settle
      // The session is handed to `waiter` and `waiter` is interrupted before it runs again.
      yield* Effect.zipRight(lock.release, Fiber.interrupt(waiter))
      expect(yield* Fiber.join(after)).toBe("after")
    }))

  it.effect("a failure inside releases the session", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      const failed = yield* Effect.flip(lock.withSession(Effect.fail("boom")))
      expect(failed).toBe("boom")
      expect(yield* lock.withSession(Effect.succeed(1))).toBe(1)
    }))

  it.effect("a statement outside a transaction begins at once when the session is free, several at a time", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      const begun: Array<number> = []
      const answers = Array.from({ length: 3 }, () => {
        let resolve: (value: number) => void = () => undefined
        const promise = new Promise<number>((done) => resolve = done)
        return { promise, resolve }
      })
      const fibers = yield* Effect.forEach(answers, (answer, i) =>
        Effect.fork(lock.start(() => {
          begun.push(i)
          return answer.promise
        }, String)))
      yield* settle
      expect(begun).toEqual([0, 1, 2])
      answers.forEach((answer, i) => answer.resolve(i * 10))
      expect(yield* Effect.forEach(fibers, Fiber.join)).toEqual([0, 10, 20])
    }))

  it.effect("a statement outside a transaction begins between the transactions around it, in order of arrival", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      const log: Array<string> = []
      const gate = (name: string) =>
        Effect.flatMap(Deferred.make<void>(), (done) =>
          Effect.map(
            Effect.fork(
              lock.withSession(Effect.zipRight(Effect.sync(() => log.push(`${name} holds`)), Deferred.await(done)))
            ),
            (fiber) => ({ done, fiber })
          ))
      const statement = (name: string) =>
        Effect.fork(lock.start(() => {
          log.push(`${name} begins`)
          return Promise.resolve(name)
        }, String))
      const first = yield* gate("tx1")
      yield* settle
      const early = yield* statement("s1")
      yield* settle
      const second = yield* gate("tx2")
      yield* settle
      const late = yield* statement("s2")
      yield* settle
      expect(log).toEqual(["tx1 holds"])
      yield* Deferred.succeed(first.done, undefined)
      yield* settle
      // s1 was given to the engine by tx1's release itself, before tx2 took the session.
      expect(log).toEqual(["tx1 holds", "s1 begins", "tx2 holds"])
      yield* Deferred.succeed(second.done, undefined)
      yield* settle
      expect(log).toEqual(["tx1 holds", "s1 begins", "tx2 holds", "s2 begins"])
      expect(yield* Fiber.join(early)).toBe("s1")
      expect(yield* Fiber.join(late)).toBe("s2")
    }))

  it.effect("a statement interrupted while a transaction holds the session is never begun", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      let begun = false
      const gate = yield* Deferred.make<void>()
      const holder = yield* Effect.fork(lock.withSession(Deferred.await(gate)))
      yield* settle
      const statement = yield* Effect.fork(lock.start(() => {
        begun = true
        return Promise.resolve(1)
      }, String))
      yield* settle
      yield* Fiber.interrupt(statement)
      yield* Deferred.succeed(gate, undefined)
      yield* Fiber.join(holder)
      expect(begun).toBe(false)
      expect(yield* lock.withSession(Effect.succeed("free"))).toBe("free")
    }))

  it.effect("a statement whose begin throws or rejects fails with the given error", () =>
    Effect.gen(function*() {
      const lock = makeSessionLock()
      const thrown = yield* Effect.flip(lock.start(() => {
        throw new Error("cannot clone")
      }, (cause) => `failed: ${(cause as Error).message}`))
      expect(thrown).toBe("failed: cannot clone")
      const rejected = yield* Effect.flip(
        lock.start(() => Promise.reject(new Error("23505")), (cause) => (cause as Error).message)
      )
      expect(rejected).toBe("23505")
    }))
})
