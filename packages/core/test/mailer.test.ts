import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Roda } from "../src/index"
import { Mailer } from "../src/platform/Mailer"
import { startRoda, uniqueEmail } from "./support/harness"
import { outboxFor } from "./support/outbox"

/** With SMTP_URL set, e-mails go out over SMTP and the outbox row is marked sent. */
const received: Array<{ to: string; data: string }> = []
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  onData(stream, session, callback) {
    let data = ""
    stream.on("data", (chunk: Buffer) => (data += chunk.toString()))
    stream.on("end", () => {
      received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(","), data })
      callback()
    })
  }
})
let roda: Roda

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve))
  const { port } = smtp.server.address() as AddressInfo
  roda = startRoda({ smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true` })
})

afterAll(async () => {
  await roda.dispose()
  await new Promise<void>((resolve) => smtp.close(resolve))
})

const sentAt = (id: string) =>
  roda.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ sentAt: Date | null }>`SELECT sent_at FROM outbox WHERE id = ${id}`)
  )

describe("Mailer over SMTP", () => {
  it("writes the outbox and delivers the e-mail", async () => {
    const to = uniqueEmail("smtp")
    await roda.runtime.runPromise(
      Effect.flatMap(Mailer, (mailer) => mailer.send({ to, subject: "Olá", text: "Corpo da mensagem", kind: "test" }))
    )
    const [mail] = await outboxFor(roda, to)
    expect(mail?.subject).toBe("Olá")
    await expect.poll(() => received.find((r) => r.to === to)?.data ?? "", { timeout: 10_000 }).toContain(
      "Corpo da mensagem"
    )
    await expect.poll(async () => (await sentAt(mail!.id))[0]?.sentAt ?? null, { timeout: 10_000 }).not.toBeNull()
  })
})
