import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startSmtp } from "../../../testing/smtp"
import type { Roda } from "../src/index"
import { Mailer } from "../src/platform/Mailer"
import { startRoda, uniqueEmail } from "./support/harness"
import { outboxFor } from "./support/outbox"

/** With SMTP_URL set, e-mails go out over SMTP and the outbox row is marked sent. */
let smtp: Awaited<ReturnType<typeof startSmtp>>
let roda: Roda

beforeAll(async () => {
  smtp = await startSmtp()
  roda = startRoda({ smtpUrl: smtp.url })
})

afterAll(async () => {
  await roda.dispose()
  await smtp.close()
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
    await expect.poll(() => smtp.received.find((mail) => mail.to.includes(to))?.data ?? "", { timeout: 10_000 })
      .toContain(
        "Corpo da mensagem"
      )
    await expect.poll(async () => (await sentAt(mail!.id))[0]?.sentAt ?? null, { timeout: 10_000 }).not.toBeNull()
  })
})
