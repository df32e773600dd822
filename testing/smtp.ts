import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"

export interface ReceivedMail {
  readonly from: string
  readonly to: ReadonlyArray<string>
  /** The message as it came over the wire (headers and body). */
  readonly data: string
}

/** The text of a message, its quoted-printable soft breaks and escapes undone. */
export const textOf = (mail: ReceivedMail) =>
  mail.data.replace(/=\r?\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_, hex: string) => String.fromCharCode(parseInt(hex, 16))
  )

/**
 * An SMTP server on 127.0.0.1 that keeps every message it is given; `url` is an SMTP_URL for it.
 * `delayMs` makes it a slow relay: each message is accepted that long after its data arrived.
 */
export const startSmtp = async (options: { readonly delayMs?: number } = {}) => {
  const received: Array<ReceivedMail> = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let data = ""
      stream.on("data", (chunk: Buffer) => (data += chunk.toString()))
      stream.on("end", () => {
        const accept = () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((recipient) => recipient.address),
            data
          })
          callback()
        }
        if (options.delayMs === undefined) accept()
        else setTimeout(accept, options.delayMs)
      })
    }
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    received,
    /** The first message to `to` (whose text matches `matching`), waited for up to `timeout` ms. */
    mailTo: async (to: string, matching: RegExp = /./, timeout = 15_000): Promise<ReceivedMail> => {
      const until = Date.now() + timeout
      for (;;) {
        const mail = received.find((message) => message.to.includes(to) && matching.test(textOf(message)))
        if (mail !== undefined) return mail
        if (Date.now() > until) throw new Error(`no e-mail to ${to} matching ${matching} within ${timeout} ms`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    close: () => new Promise<void>((resolve) => server.close(resolve))
  }
}
