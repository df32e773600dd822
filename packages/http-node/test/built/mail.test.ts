import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BuiltServer, startBuiltServer } from "../../../../testing/builtServer"
import { startSmtp } from "../../../../testing/smtp"

/**
 * The built `roda-server` (dist/, as shipped) sends its e-mails over SMTP: nodemailer is loaded
 * lazily by the bundle, which only a run of the bundle proves.
 */
let smtp: Awaited<ReturnType<typeof startSmtp>>
let server: BuiltServer

beforeAll(async () => {
  smtp = await startSmtp()
  server = await startBuiltServer({ SMTP_URL: smtp.url })
})

afterAll(async () => {
  await server?.stop()
  await smtp?.close()
})

const post = async (path: string, body: unknown) => {
  const reply = await fetch(`${server.base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  return { status: reply.status, body: await reply.json() as any }
}

/** The text of a message, its quoted-printable soft breaks and escapes undone. */
const textOf = (data: string) =>
  data.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

describe("the built server's e-mail", () => {
  it("delivers the recovery e-mail over SMTP, and its link sets a new password", async () => {
    const email = `built-${Date.now()}@roda.test`
    expect((await post("/api/auth/register", { fullName: "Bia Built", email, password: "Secret123" })).status).toBe(201)
    expect((await post("/api/auth/recovery-password", { email })).status).toBe(200)

    const mail = await smtp.mailTo(email)
    // The outbox row's stable Message-ID, on the public host, so a relay can drop a repeat.
    expect(mail.data).toMatch(/^Message-ID: <[0-9a-f-]{36}@127\.0\.0\.1>\r?$/m)
    const link = new URL(/http:\/\/127\.0\.0\.1:\d+\/set-password\?[^\s"<>]+/.exec(textOf(mail.data))![0])
    expect(link.origin).toBe(server.base)
    const set = await post("/api/auth/set-password", {
      id: link.searchParams.get("id"),
      token: link.searchParams.get("token"),
      password: "NewSecret456"
    })
    expect(set.status).toBe(200)
    expect((await post("/api/auth/login", { email, password: "NewSecret456" })).status).toBe(200)
    expect((await post("/api/auth/login", { email, password: "Secret123" })).status).toBe(401)
    expect(server.output()).not.toMatch(/could not start|createTransport is not a function/)
  })
})
