import { Effect, ExecutionStrategy, Exit, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { RequestScope } from "../src/requestScope"

describe("RequestScope", () => {
  it("runs its finalizers in reverse order on close, with the exit", async () => {
    const scope = new RequestScope()
    const ran: Array<string> = []
    await Effect.runPromise(Scope.addFinalizer(scope, Effect.sync(() => ran.push("first"))))
    await Effect.runPromise(Scope.addFinalizerExit(scope, (exit) => Effect.sync(() => ran.push(`second ${exit._tag}`))))
    await Effect.runPromise(Scope.close(scope, Exit.fail("no")))
    expect(ran).toEqual(["second Failure", "first"])
  })

  it("closes what was forked from it", async () => {
    const scope = new RequestScope()
    const ran: Array<string> = []
    const child = await Effect.runPromise(Scope.fork(scope, ExecutionStrategy.sequential))
    await Effect.runPromise(Scope.addFinalizer(child, Effect.sync(() => ran.push("child"))))
    await Effect.runPromise(Scope.close(scope, Exit.void))
    expect(ran).toEqual(["child"])
  })

  it("once closed, runs a finalizer added later at once, and closes only once", async () => {
    const scope = new RequestScope()
    await Effect.runPromise(Scope.close(scope, Exit.void))
    const ran: Array<string> = []
    await Effect.runPromise(Scope.addFinalizer(scope, Effect.sync(() => ran.push("late"))))
    expect(ran).toEqual(["late"])
    await Effect.runPromise(Scope.close(scope, Exit.void))
    expect(ran).toEqual(["late"])
  })

  it("serves Effect.scoped code as a scope made by Scope.make does", async () => {
    const ran: Array<string> = []
    const scope = new RequestScope()
    await Effect.runPromise(
      Effect.acquireRelease(Effect.succeed(1), () => Effect.sync(() => ran.push("released"))).pipe(
        Effect.provideService(Scope.Scope, scope)
      )
    )
    expect(ran).toEqual([])
    await Effect.runPromise(Scope.close(scope, Exit.void))
    expect(ran).toEqual(["released"])
  })
})
