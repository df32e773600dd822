// Starts the built `roda-server` (packages/http-node/dist/main.js) on a free port, the way
// testing/builtServer.ts does for the suites: on an embedded database in a new temp folder, or on
// DATABASE_URL when it is set.
import { spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { SMTPServer } from "smtp-server"

export const SERVER_BIN = fileURLToPath(new URL("../../packages/http-node/dist/main.js", import.meta.url))

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })

/**
 * The limits on abuse counted per client would refuse the sweep's own sign-ups and posts (every
 * request comes from one address): they are raised for its server, and a 429 is never a finding.
 */
const SWEEP_RATE_LIMITS = JSON.stringify({
  register: { limit: 10_000, windowSeconds: 3600 },
  posting: { limit: 100_000, windowSeconds: 60 },
  invite: { limit: 100_000, windowSeconds: 3600 },
  recovery: { limit: 100_000, windowSeconds: 3600 }
})

/**
 * A local SMTP server keeping the messages it is given: sign-ups are confirmed through the link they
 * are sent (inviting members needs a confirmed e-mail), as a person would.
 */
const startMail = async () => {
  const received = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      let data = ""
      stream.on("data", (chunk) => (data += chunk.toString()))
      stream.on("end", () => {
        const text = data.replace(/=\r?\n/g, "").replace(
          /=([0-9A-F]{2})/g,
          (_, hex) => String.fromCharCode(parseInt(hex, 16))
        )
        received.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), text })
        callback()
      })
    }
  })
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
  const confirmLink = async (email) => {
    for (let tries = 0; tries < 300; tries++) {
      const mail = received.find((message) => message.to.includes(email) && /confirm-email\?/.test(message.text))
      if (mail !== undefined) return new URL(/https?:\/\/\S+\/confirm-email\?\S+/.exec(mail.text)[0])
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error(`no confirmation e-mail for ${email} within 15 s`)
  }
  return {
    url: `smtp://127.0.0.1:${server.server.address().port}?ignoreTLS=true`,
    confirmLink,
    close: () => server.close()
  }
}

export const startServer = async ({ databaseUrl, log = () => {} } = {}) => {
  const port = await freePort()
  const mail = await startMail()
  const dataDir = databaseUrl === undefined ? mkdtempSync(join(tmpdir(), "roda-sweep-")) : undefined
  const base = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, [SERVER_BIN], {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: base,
      JWT_SECRET: "a-secret-of-at-least-thirty-two-characters",
      PAYMENT_GATEWAY: "sandbox",
      SANDBOX_WEBHOOK_SECRET: "whsec_dGVzdC1zYW5kYm94LXdlYmhvb2stc2VjcmV0LWtleQ==",
      LOG_LEVEL: "warn",
      RATE_LIMITS: SWEEP_RATE_LIMITS,
      SMTP_URL: mail.url,
      ...(dataDir === undefined ? { DATABASE_URL: databaseUrl } : { DATA_DIR: dataDir })
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk) => (output += chunk))
  child.stderr.on("data", (chunk) => (output += chunk))
  const exited = new Promise((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
    await exited
    mail.close()
    if (dataDir !== undefined) rmSync(dataDir, { recursive: true, force: true })
  }
  log(`starting roda-server on ${base} (${dataDir === undefined ? "PostgreSQL" : `embedded, ${dataDir}`})`)
  for (let tries = 0; tries < 1200; tries++) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`roda-server exited with ${child.exitCode}: ${output}`)
    }
    if (await fetch(`${base}/readyz`).then((reply) => reply.status === 200, () => false)) {
      return { base, output: () => output, stop, confirmLink: mail.confirmLink }
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`roda-server did not answer /readyz within 120 s: ${output}`)
}
