import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { testPlatform } from "../../../testing/passwords"
import { startSmtp } from "../../../testing/smtp"
import { defaultOptions, makeRoda, secret } from "../node/index"
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

  it("a process closing right after writing e-mails delivers them first, each marked sent once", async () => {
    // A database that outlives the process: a data folder, or the file's PostgreSQL database.
    const dataDir = mkdtempSync(join(tmpdir(), "roda-mailer-"))
    const open = (smtpUrl?: string) =>
      makeRoda({
        platform: testPlatform,
        database: process.env.DATABASE_URL
          ? { _tag: "Postgres", url: secret(process.env.DATABASE_URL) }
          : { _tag: "Embedded", dataDir: join(dataDir, "pg") },
        options: defaultOptions({
          jwtSecret: secret("test-secret-that-is-long-enough-for-hs256"),
          ...(smtpUrl === undefined ? {} : { smtpUrl })
        })
      })
    const recipients = [uniqueEmail("closing"), uniqueEmail("closing"), uniqueEmail("closing")]
    try {
      const closing = open(smtp.url)
      await closing.runtime.runPromise(
        Effect.flatMap(
          Mailer,
          (mailer) =>
            Effect.forEach(recipients, (to) => mailer.send({ to, subject: "Até logo", text: "Última", kind: "test" }))
        )
      )
      await closing.dispose()
      for (const to of recipients) expect(smtp.received.filter((mail) => mail.to.includes(to))).toHaveLength(1)

      const after = open()
      try {
        const unsent = await after.runtime.runPromise(
          Effect.flatMap(SqlClient.SqlClient, (sql) =>
            sql<{ recipient: string }>`SELECT recipient FROM outbox
            WHERE recipient IN ${sql.in(recipients)} AND sent_at IS NULL`)
        )
        expect(unsent).toEqual([])
      } finally {
        await after.dispose()
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })
})
