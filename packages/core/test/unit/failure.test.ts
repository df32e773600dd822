import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Effect, Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { AppError } from "../../src/domain/AppError"
import { Conflict, declared, failure, invalid, NotFound } from "../../src/domain/Failure"
import { coded, text } from "../../src/domain/Text"

const messages = coded({
  courseNotFound: text("Curso não encontrado.", "Course not found."),
  spaceNotFound: text("Espaço não encontrado.", "Space not found."),
  slugTaken: text("Este slug já está em uso.", "This slug is taken.")
})

const api = HttpApi.make("test").add(
  HttpApiGroup.make("courses").add(
    HttpApiEndpoint.get("get", "/courses/:id")
      .addSuccess(Schema.String)
      .addError(declared(NotFound, "course_not_found"))
  )
)

describe("typed failures", () => {
  it("carry their message's code and their kind's status, and are AppErrors (so old declarations accept them)", () => {
    const error = failure(NotFound, messages.courseNotFound)
    expect(error.code).toBe("course_not_found")
    expect(error.status).toBe(404)
    expect(error.kind).toBe("NotFound")
    expect(error).toBeInstanceOf(AppError)
    const field = invalid("slug", messages.slugTaken)
    expect({ status: field.status, code: field.code, param: field.errors?.[0]?.param }).toEqual({
      status: 400,
      code: "slug_taken",
      param: "slug"
    })
  })

  it("lets the compiler refuse a handler that fails with a kind or a code the endpoint does not declare", () => {
    HttpApiBuilder.group(
      api,
      "courses",
      (handlers) => handlers.handle("get", () => Effect.fail(failure(NotFound, messages.courseNotFound)))
    )
    HttpApiBuilder.group(api, "courses", (handlers) =>
      // @ts-expect-error: `space_not_found` is not declared by the endpoint
      handlers.handle("get", () => Effect.fail(failure(NotFound, messages.spaceNotFound))))
    HttpApiBuilder.group(api, "courses", (handlers) =>
      // @ts-expect-error: a Conflict is not declared, even with a declared code
      handlers.handle("get", () => Effect.fail(failure(Conflict, messages.courseNotFound))))
    expect(true).toBe(true)
  })

  it("are documented as the error envelope with the codes declared, at their status", () => {
    const operation = OpenApi.fromApi(api).paths["/courses/{id}"]!.get!
    const schema = JSON.stringify(operation.responses[404])
    expect(schema).toContain("course_not_found")
    expect(schema).not.toContain("_tag")
    expect(operation.responses[500]).toBeUndefined()
  })

  it("decode from the envelope a client receives, and refuse a code the endpoint does not declare", () => {
    const decode = Schema.decodeUnknownEither(declared(NotFound, "course_not_found"))
    const decoded = decode({ success: false, code: "course_not_found", message: "Course not found." })
    expect(Either.isRight(decoded) && decoded.right).toBeInstanceOf(NotFound)
    expect(Either.isRight(decoded) && decoded.right.text.en).toBe("Course not found.")
    expect(Either.isLeft(decode({ success: false, code: "space_not_found", message: "x" }))).toBe(true)
  })
})
