import type { AddressInfo } from "node:net"
import { SMTPServer } from "smtp-server"
import { describe, expect, it } from "vitest"
import { startBuiltServer } from "../../../../testing/builtServer"
import { freePort } from "../../../../testing/ports"

/**
 * A delivery that fails is logged by the built server with the relay (host:port) and the cause, never
 * with the credentials of SMTP_URL (no more "UnknownException: An unknown error occurred").
 */
const PASSWORD = "hunter2-smtp-pw"

/** Registers an account and asks for its recovery e-mail; resolves with the server's line about it. */
const failedDelivery = async (smtpUrl: string) => {
  const server = await startBuiltServer({ SMTP_URL: smtpUrl, LOG_FORMAT: "json", LOG_LEVEL: "warn" })
  try {
    const email = `relay-${Date.now()}@roda.test`
    const post = (path: string, body: unknown) =>
      fetch(`${server.base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    expect((await post("/api/auth/register", { fullName: "Rui Relay", email, password: "Secret123" })).status).toBe(201)
    expect((await post("/api/auth/recovery-password", { email })).status).toBe(200)
    for (let tries = 0; tries < 300; tries++) {
      const line = server.output().split("\n").find((text) => text.includes("not delivered"))
      if (line !== undefined) {
        return { line: JSON.parse(line) as { level: string; msg: string }, output: server.output() }
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error(`no failed delivery logged: ${server.output()}`)
  } finally {
    await server.stop()
  }
}

describe("the built server's failed e-mail delivery", () => {
  it("to a relay nobody listens at: logs the relay and the refused connection", async () => {
    const port = await freePort()
    const { line, output } = await failedDelivery(`smtp://roda-mailer:${PASSWORD}@127.0.0.1:${port}?ignoreTLS=true`)
    expect(line.level).toBe("warn")
    expect(line.msg).toMatch(/^E-mail \S+ not delivered \(SMTP relay 127\.0\.0\.1:\d+: .+\); it stays in the outbox$/)
    expect(line.msg).toContain(`SMTP relay 127.0.0.1:${port}: `)
    expect(line.msg).toContain("ECONNREFUSED")
    expect(output).not.toContain(PASSWORD)
    expect(output).not.toContain("roda-mailer")
    expect(output).not.toContain("UnknownException")
  })

  it("to a relay that refuses the login: logs the relay and its answer", async () => {
    const relay = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      onAuth: (_auth, _session, callback) => callback(new Error("Invalid username or password"))
    })
    await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve))
    const { port } = relay.server.address() as AddressInfo
    try {
      const { line, output } = await failedDelivery(`smtp://roda-mailer:${PASSWORD}@127.0.0.1:${port}?ignoreTLS=true`)
      expect(line.msg).toContain(`SMTP relay 127.0.0.1:${port}: EAUTH: Invalid login: 535`)
      expect(output).not.toContain(PASSWORD)
      expect(output).not.toContain("roda-mailer")
    } finally {
      await new Promise<void>((resolve) => relay.close(resolve))
    }
  })
})
