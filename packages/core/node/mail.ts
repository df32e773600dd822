import { Effect, Layer } from "effect"
import { MailTransport, type OutgoingMail } from "../src/platform/Mailer"

/** The relay of an SMTP URL as `host:port` (nodemailer's default ports), never its user or password. */
export const relayOf = (url: string) => {
  const parsed = new URL(url)
  const port = parsed.port || (parsed.protocol === "smtps:" ? "465" : "587")
  return `${parsed.hostname}:${port}`
}

/** What the relay or the network answered, with the URL's credentials blanked should the cause repeat them. */
const causeOf = (error: unknown, url: string) => {
  const { code, message, response } = (error ?? {}) as { code?: string; message?: string; response?: string }
  let text = [code, message ?? response ?? String(error)].filter(Boolean).join(": ")
  const { password, username } = new URL(url)
  // The user name only when it is long enough not to be an ordinary word of the message.
  const secrets = [password, ...(username.length >= 4 ? [username] : [])].flatMap((
    part
  ) => [part, decodeURIComponent(part)])
  for (const secret of secrets) {
    if (secret.length > 0) text = text.split(secret).join("***")
  }
  return text
}

/** A delivery that failed: its message names the relay and the cause (never the URL's credentials). */
export class SmtpDeliveryError extends Error {
  override readonly name = "SmtpDeliveryError"
}

/** SMTP through nodemailer, loaded only when `options.smtpUrl` is set. */
export const nodemailerTransport = Layer.succeed(MailTransport, {
  smtp: (url, from) =>
    Effect.promise(async () => {
      // nodemailer is CommonJS: its functions are on `default` (module.exports) wherever it is loaded
      // from; the bundled server's import of it has no named exports at all.
      const { default: nodemailer } = await import("nodemailer")
      const transport = nodemailer.createTransport(url)
      const relay = relayOf(url)
      return (mail: OutgoingMail) =>
        Effect.tryPromise({
          try: () =>
            transport.sendMail({
              from,
              to: mail.to,
              subject: mail.subject,
              text: mail.text,
              messageId: mail.messageId,
              ...(mail.html === undefined ? {} : { html: mail.html }),
              ...(mail.headers === undefined ? {} : { headers: { ...mail.headers } }),
              ...(mail.attachments === undefined ? {} : {
                attachments: mail.attachments.map((file) => ({
                  filename: file.filename,
                  contentType: file.contentType,
                  content: file.content,
                  encoding: "base64",
                  ...(file.contentId === undefined ? {} : { cid: file.contentId })
                }))
              })
            }),
          catch: (error) => new SmtpDeliveryError(`SMTP relay ${relay}: ${causeOf(error, url)}`)
        })
    })
})
