import { Effect } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { startSmtp } from "../../../../testing/smtp"
import { defaultOptions, makeRoda, secret } from "../../node/index"
import { Mailer } from "../../src/platform/Mailer"

let smtp: Awaited<ReturnType<typeof startSmtp>>
afterAll(() => smtp?.close())

describe("makeRoda mailFrom option", () => {
  it("sends e-mails over SMTP as the configured sender", async () => {
    smtp = await startSmtp()
    const roda = makeRoda({
      // Its own in-memory database: no backlog of other suites' e-mails.
      database: { _tag: "Embedded", dataDir: "memory" },
      options: defaultOptions({
        jwtSecret: secret("a-test-secret-that-is-long-enough-123"),
        smtpUrl: smtp.url,
        mailFrom: "Acme Community <community@acme.example>"
      })
    })
    try {
      await roda.runtime.runPromise(
        Effect.flatMap(
          Mailer,
          (mailer) => mailer.send({ to: "member@example.com", subject: "Hi", text: "Hello", kind: "test" })
        )
      )
      await expect.poll(() => smtp.received.length, { timeout: 15_000 }).toBe(1)
      expect(smtp.received[0]!.from).toBe("community@acme.example")
      expect(smtp.received[0]!.data).toContain("From: Acme Community <community@acme.example>")
    } finally {
      await roda.dispose()
    }
  })
})
