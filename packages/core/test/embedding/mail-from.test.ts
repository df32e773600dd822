import { Effect } from "effect"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"
import { afterAll, describe, expect, it } from "vitest"
import { defaultOptions, makeRoda, secret } from "../../node/index"
import { Mailer } from "../../src/platform/Mailer"

const received: Array<{ from: string; data: string }> = []
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, session, callback) {
    let data = ""
    stream.on("data", (chunk: Buffer) => (data += chunk.toString()))
    stream.on("end", () => {
      received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", data })
      callback()
    })
  }
})

afterAll(() => new Promise<void>((resolve) => smtp.close(resolve)))

describe("makeRoda mailFrom option", () => {
  it("sends e-mails over SMTP as the configured sender", async () => {
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve))
    const { port } = smtp.server.address() as AddressInfo
    const roda = makeRoda({
      // Its own in-memory database: no backlog of other suites' e-mails.
      database: { _tag: "Embedded", dataDir: "memory" },
      options: defaultOptions({
        jwtSecret: secret("a-test-secret-that-is-long-enough-123"),
        smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
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
      await expect.poll(() => received.length, { timeout: 15_000 }).toBe(1)
      expect(received[0]!.from).toBe("community@acme.example")
      expect(received[0]!.data).toContain("From: Acme Community <community@acme.example>")
    } finally {
      await roda.dispose()
    }
  })
})
