import { afterAll, expect, it } from "vitest"
import { activeTemplate, certificateCommunity, issueAndWait } from "../certificates/support"
import { client, startRoda } from "../support/harness"
import { statements } from "../support/queries"

/**
 * Issue 54, item 4: `certificate.issued` adds one statement: the certificate it sends is the one the
 * issuing UPDATE answered (`markIssued` reads it with its template in that statement).
 */
const roda = startRoda({}, { tracing: true })
const api = client(roda)
afterAll(() => roda.dispose())

it("issuing a certificate takes 5 statements, one of them its event", async () => {
  const setup = await certificateCommunity(api, "Certificados contados")
  const template = await activeTemplate(api, setup)
  const { emits, inSpans, result } = await statements(
    () => issueAndWait(api, setup, template.id, [setup.ana.profileId]),
    { spans: ["Certificates.issued"] }
  )
  expect(result.certificates.map((c: { status: string }) => c.status)).toEqual(["issued"])
  // The issuing (answering the certificate), its batch's count, the holder's notification (on
  // PostgreSQL with the streams' pg_notify), the e-mail, and the event.
  expect(inSpans).toBe(5)
  expect(emits).toBe(1)
})
