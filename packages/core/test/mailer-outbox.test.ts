import { SqlClient } from "@effect/sql"
import { Effect, Fiber } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { POSTGRES_ONLY, skipWhen } from "../../../testing/skips"
import { startSmtp } from "../../../testing/smtp"
import { nodemailerTransport } from "../node/mail"
import type { Roda } from "../src/index"
import { type Deliver, deliverOutbox, Mailer, MailTransport } from "../src/platform/Mailer"
import { startRoda, uniqueEmail } from "./support/harness"

/**
 * The outbox sends every e-mail once, even when the relay is slower than a lease: two workers share
 * one database, the relay takes 2.5 s per message and the lease is 2 s, so a claim survives only
 * by being renewed while the message is sent (and a batch claimed at once would outlive it too).
 */
const N = 8
const LEASE = "2 seconds"
const DELAY_MS = 2_500

let smtp: Awaited<ReturnType<typeof startSmtp>>
let first: Roda
let second: Roda
let deliver: Deliver

beforeAll(async () => {
  smtp = await startSmtp({ delayMs: DELAY_MS })
  // Neither instance has smtpUrl: the only workers are the ones each test starts.
  first = startRoda()
  second = startRoda()
  deliver = await Effect.runPromise(
    Effect.flatMap(MailTransport, (transport) => transport.smtp(smtp.url, "Roda <no-reply@roda.test>")).pipe(
      Effect.provide(nodemailerTransport)
    )
  )
})

afterAll(async () => {
  await Promise.all([first.dispose(), second.dispose()])
  await smtp.close()
})

const enqueue = async (roda: Roda, tag: string) => {
  const recipients = Array.from({ length: N }, (_, i) => uniqueEmail(`${tag}${i}`))
  await roda.runtime.runPromise(
    Effect.flatMap(
      Mailer,
      (mailer) =>
        Effect.forEach(recipients, (to) => mailer.send({ to, subject: "Olá", text: `Para ${to}`, kind: "test" }), {
          discard: true
        })
    )
  )
  return recipients
}

const idsOf = (roda: Roda, recipients: ReadonlyArray<string>) =>
  roda.runtime.runPromise(
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ id: string; sentAt: Date | null }>`SELECT id, sent_at FROM outbox WHERE recipient IN ${sql.in(recipients)}`)
  )

/** Starts one worker in each runtime, waits until every message is sent and the relay is quiet, then stops them. */
const deliverWith = async (runtimes: ReadonlyArray<Roda>, recipients: ReadonlyArray<string>) => {
  const workers = runtimes.map((roda) =>
    roda.runtime.runFork(deliverOutbox(deliver, { host: "roda.test", lease: LEASE }))
  )
  try {
    await expect.poll(async () => (await idsOf(runtimes[0]!, recipients)).every((row) => row.sentAt !== null), {
      timeout: 60_000,
      interval: 200
    }).toBe(true)
    // Long enough for a second copy claimed after a lapsed lease to reach the relay.
    await new Promise((resolve) => setTimeout(resolve, DELAY_MS * 3))
  } finally {
    await Promise.all(workers.map((worker, i) => runtimes[i]!.runtime.runPromise(Fiber.interrupt(worker))))
  }
  const mails = smtp.received.filter((mail) => recipients.some((to) => mail.to.includes(to)))
  const messageIds = mails.map((mail) => /^Message-ID:\s*(\S+)/im.exec(mail.data)?.[1])
  const rows = await idsOf(runtimes[0]!, recipients)
  return { mails, messageIds, rows }
}

const expectEachOnce = ({ mails, messageIds, rows }: Awaited<ReturnType<typeof deliverWith>>) => {
  expect(mails).toHaveLength(N)
  expect(new Set(mails.map((mail) => mail.to[0])).size).toBe(N)
  // Each message carries the stable Message-ID of its outbox row, once.
  expect([...messageIds].sort()).toEqual(rows.map((row) => `<${row.id}@roda.test>`).sort())
}

describe("outbox delivery with a slow relay", () => {
  it("two workers in one runtime send each of N e-mails exactly once, with a Message-ID per outbox row", async () => {
    const recipients = await enqueue(first, "one")
    expectEachOnce(await deliverWith([first, first], recipients))
  }, 90_000)

  skipWhen(POSTGRES_ONLY).it(
    "two runtimes with pools of their own on one database send each of N e-mails exactly once",
    async () => {
      const recipients = await enqueue(first, "two")
      expectEachOnce(await deliverWith([first, second], recipients))
    },
    90_000
  )
})
