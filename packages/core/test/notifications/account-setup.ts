import { expect } from "vitest"
import type { Roda } from "../../src/index"
import { controlledClock } from "../commerce/subscriptions-support"
import { as } from "../support/community"
import { expectOk } from "../support/envelope"
import { type Client, client, startRoda } from "../support/harness"
import { outboxFor } from "../support/outbox"
import { type In, inbox } from "./setup"

/**
 * A Roda whose clock the test moves and whose jobs run by hand (`runJobs`): certificates are
 * generated and renewals charged when the test says so.
 */
export const startAccountRoda = (start: number) => {
  const time = controlledClock(start)
  const roda: Roda = startRoda({ runJobs: false }, { clock: time.clock })
  return { time, roda, api: client(roda) }
}

/** `user`'s notifications of `kind`, newest first. */
export const inboxOf = async (api: Client, setup: In, user: { token: string }, kind: string) =>
  (await inbox(api, setup, user)).filter((item) => item.kind === kind)

/** `user` turns the e-mail of `kind` off (in the app it stays on). */
export const emailOff = async (api: Client, setup: In, user: { token: string }, kind: string) => {
  const saved = expectOk(
    await api.put("/api/notification-preferences", { [kind]: { email: "off" } }, as(user, setup.community))
  )
  expect(saved[kind]).toEqual({ inApp: true, email: "off" })
}

/** The e-mails of `kind` written to the outbox for `email`. */
export const mailsOf = async (roda: Roda, email: string, kind: string) =>
  (await outboxFor(roda, email)).filter((mail) => mail.kind === kind)
