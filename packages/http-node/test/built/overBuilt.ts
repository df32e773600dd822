import type { Roda } from "@roda/core"
import { type BuiltServer, overHttp } from "../../../../testing/builtServer"
import { type startSmtp, textOf } from "../../../../testing/smtp"
import { client } from "../../../core/test/support/harness"

type Smtp = Awaited<ReturnType<typeof startSmtp>>

/**
 * The test suites' client, over HTTP to a built server: sign-ups are confirmed through the link the
 * server e-mails to `smtp` (the built process's outbox is out of the test's reach, as a user's is).
 */
export const overBuilt = (server: BuiltServer, smtp: Smtp | (() => Promise<Smtp>)) =>
  client(
    overHttp(server.base) as unknown as Roda,
    {
      confirmLink: async (email) => {
        const mailbox = typeof smtp === "function" ? await smtp() : smtp
        const mail = await mailbox.mailTo(email, /confirm-email\?/)
        const link = new URL(/https?:\/\/\S+\/confirm-email\?\S+/.exec(textOf(mail))![0])
        return { id: link.searchParams.get("id")!, token: link.searchParams.get("token")! }
      }
    }
  )
