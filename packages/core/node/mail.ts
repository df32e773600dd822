import { Effect, Layer } from "effect"
import { MailTransport, type OutgoingMail } from "../src/platform/Mailer"

/** SMTP through nodemailer, loaded only when `options.smtpUrl` is set. */
export const nodemailerTransport = Layer.succeed(MailTransport, {
  smtp: (url, from) =>
    Effect.promise(async () => {
      // nodemailer is CommonJS: its functions are on `default` (module.exports) wherever it is loaded
      // from; the bundled server's import of it has no named exports at all.
      const { default: nodemailer } = await import("nodemailer")
      const transport = nodemailer.createTransport(url)
      return (mail: OutgoingMail) =>
        Effect.tryPromise(() =>
          transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, messageId: mail.messageId })
        )
    })
})
