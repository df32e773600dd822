import { Effect, Layer } from "effect"
import { type Mail, MailTransport } from "../src/platform/Mailer"

/** SMTP through nodemailer, loaded only when `options.smtpUrl` is set. */
export const nodemailerTransport = Layer.succeed(MailTransport, {
  smtp: (url, from) =>
    Effect.promise(async () => {
      const nodemailer = await import("nodemailer")
      const transport = nodemailer.createTransport(url)
      return (mail: Mail) =>
        Effect.tryPromise(() => transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text }))
    })
})
