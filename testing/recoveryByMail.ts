import { expect } from "vitest"
import { type startSmtp, textOf } from "./smtp"

const post = async (base: string, path: string, body: unknown) => {
  const reply = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  return { status: reply.status, body: await reply.json() as any }
}

/**
 * Against a server started with SMTP_URL at `smtp` and PUBLIC_BASE_URL `base`: a new account asks
 * for password recovery, the e-mail arrives over SMTP, and its link sets a new password.
 */
export const expectRecoveryByMail = async (base: string, smtp: Awaited<ReturnType<typeof startSmtp>>) => {
  const email = `recovery-${Date.now()}@roda.test`
  expect((await post(base, "/api/auth/register", { fullName: "Bia Built", email, password: "Secret123" })).status)
    .toBe(201)
  expect((await post(base, "/api/auth/recovery-password", { email })).status).toBe(200)

  const mail = await smtp.mailTo(email, /set-password/)
  // The outbox row's stable Message-ID, on the public host, so a relay can drop a repeat.
  expect(mail.data).toMatch(/^Message-ID: <[0-9a-f-]{36}@127\.0\.0\.1>\r?$/m)
  const link = new URL(/http:\/\/127\.0\.0\.1:\d+\/set-password\?[^\s"<>]+/.exec(textOf(mail))![0])
  expect(link.origin).toBe(base)
  const set = await post(base, "/api/auth/set-password", {
    id: link.searchParams.get("id"),
    token: link.searchParams.get("token"),
    password: "NewSecret456"
  })
  expect(set.status).toBe(200)
  expect((await post(base, "/api/auth/login", { email, password: "NewSecret456" })).status).toBe(200)
  expect((await post(base, "/api/auth/login", { email, password: "Secret123" })).status).toBe(401)
}
