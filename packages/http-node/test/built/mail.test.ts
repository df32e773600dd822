import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BuiltServer, startBuiltServer } from "../../../../testing/builtServer"
import { expectRecoveryByMail } from "../../../../testing/recoveryByMail"
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

describe("the built server's e-mail", () => {
  it("delivers the recovery e-mail over SMTP, and its link sets a new password", async () => {
    await expectRecoveryByMail(server.base, smtp)
    expect(server.output()).not.toMatch(/could not start|createTransport is not a function/)
  })
})
