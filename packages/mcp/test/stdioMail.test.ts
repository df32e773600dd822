import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import { defaultOptions, makeRoda, RATE_LIMITS_OFF, secret } from "@roda/core/node"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startBuiltServer } from "../../../testing/builtServer"
import { startSmtp, textOf } from "../../../testing/smtp"
import { activeTemplate, certificateCommunity } from "../../core/test/certificates/support"
import { client } from "../../core/test/support/harness"

/**
 * The built `roda-mcp` (dist/stdio.js, as an assistant's configuration starts it) with SMTP_URL: a
 * tool whose work e-mails someone (issuing a certificate) has the e-mail delivered by the stdio
 * process, and its link opens the certificate's page on the built server of the same database.
 */
const STDIO = fileURLToPath(new URL("../dist/stdio.js", import.meta.url))
const JWT_SECRET = "stdio-mail-secret-that-is-long-enough-for-hs256"
const BASE = "http://roda.test"
const WEBHOOK_SECRET = "whsec_dGVzdC1zYW5kYm94LXdlYmhvb2stc2VjcmV0LWtleQ=="

let dataDir: string
let smtp: Awaited<ReturnType<typeof startSmtp>>
let seeded: { communityId: string; ownerToken: string; spaceId: string; templateId: string; ana: any }

const database = () => process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : { DATA_DIR: dataDir }

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "roda-mcp-mail-"))
  smtp = await startSmtp()
  const roda = makeRoda({
    database: process.env.DATABASE_URL
      ? { _tag: "Postgres", url: secret(process.env.DATABASE_URL) }
      : { _tag: "Embedded", dataDir: join(dataDir, "pg") },
    options: defaultOptions({
      jwtSecret: secret(JWT_SECRET),
      publicBaseUrl: BASE,
      sandboxWebhookSecret: secret(WEBHOOK_SECRET),
      rateLimits: RATE_LIMITS_OFF
    })
  })
  try {
    const api = client(roda)
    const setup = await certificateCommunity(api, "MCP mail")
    const template = await activeTemplate(api, setup)
    seeded = {
      communityId: setup.community.id,
      ownerToken: setup.ownerUser.token,
      spaceId: setup.space.id,
      templateId: template.id,
      ana: setup.ana
    }
  } finally {
    await roda.dispose()
  }
})

afterAll(async () => {
  await smtp?.close()
  await rm(dataDir, { recursive: true, force: true })
})

describe("roda-mcp over stdio, with SMTP_URL", () => {
  it("delivers the e-mail of a certificate issued through a tool; its link opens the page", async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [STDIO],
      env: {
        PATH: process.env.PATH ?? "",
        JWT_SECRET,
        PAYMENT_GATEWAY: "sandbox",
        SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
        PUBLIC_BASE_URL: BASE,
        SMTP_URL: smtp.url,
        LOG_LEVEL: "warn",
        RODA_TOKEN: seeded.ownerToken,
        RODA_COMMUNITY_ID: seeded.communityId,
        ...database()
      },
      stderr: "pipe"
    })
    let stderr = ""
    transport.stderr!.on("data", (chunk) => (stderr += chunk))
    const mcp = new Client({ name: "stdio-mail-test", version: "1.0.0" })
    await mcp.connect(transport).catch((error) => {
      throw new Error(`roda-mcp did not start: ${error}\n${stderr}`)
    })
    const certificateLink = /http:\/\/roda\.test\/certificates\/([0-9A-Z-]+)/
    let code: string
    try {
      const issued = await mcp.callTool({
        name: "issue_certificates",
        arguments: { templateId: seeded.templateId, spaceId: seeded.spaceId, profileIds: [seeded.ana.profileId] }
      })
      expect(issued.isError).not.toBe(true)
      // Rendered and e-mailed by the stdio process's job worker while the session is open.
      code = certificateLink.exec(textOf(await smtp.mailTo(seeded.ana.email, certificateLink, 120_000)))![1]!
    } finally {
      await mcp.close()
    }

    const server = await startBuiltServer({
      ...database(),
      JWT_SECRET,
      SANDBOX_WEBHOOK_SECRET: WEBHOOK_SECRET,
      PUBLIC_BASE_URL: BASE
    })
    try {
      const page = await fetch(`${server.base}/certificates/${code}`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain("Ana Aprendiz")
    } finally {
      await server.stop()
    }
  }, 240_000)
})
