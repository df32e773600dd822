import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startBuiltServer } from "../../../testing/builtServer"
import { startSmtp, textOf } from "../../../testing/smtp"
import {
  activeTemplate,
  coursesSpace,
  createCommunity,
  issueArgs,
  jsonOf,
  makeWorld,
  operatorAccount,
  SPAWNS,
  submitBusiness,
  uniqueEmail
} from "./support"

/**
 * The `roda` binary (dist/, as shipped) with SMTP_URL delivers the e-mails its command wrote before
 * it exits; their links work against the built server on the same database.
 */
const OPERATOR = uniqueEmail("ops")
const ANA = uniqueEmail("ana")
const world = await makeWorld([OPERATOR])
let smtp: Awaited<ReturnType<typeof startSmtp>>
let community: string
let space: string
let template: string

beforeAll(async () => {
  smtp = await startSmtp()
  await world.withRoda(async (api) => {
    const operator = await operatorAccount(api, OPERATOR)
    community = (await createCommunity(api, operator, "Escola de Vidro")).id
    space = await coursesSpace(api, operator, community, "Curso de Vitral")
    template = await activeTemplate(api, operator, community, space, "Conclusão")
    await api.post("/api/profiles/create", { email: ANA, fullName: "Ana Vidreira" }, {
      token: operator.token,
      community
    })
    await submitBusiness(api, operator, community)
  })
})

afterAll(() => smtp?.close())

describe("roda's e-mails", SPAWNS, () => {
  it("certificates issue delivers the certificates' e-mails over SMTP before it exits; the link opens the page", async () => {
    const file = join(world.dataDir, "recipients.csv")
    await writeFile(file, `${ANA}\n`)
    const issued = jsonOf(
      await world.cli(
        [...issueArgs({ community, space, as: OPERATOR }, template, file), "--json"],
        { SMTP_URL: smtp.url }
      )
    )
    expect(issued).toMatchObject({ status: "completed", issued: 1 })
    const certificateLink = /http:\/\/roda\.test\/certificates\/([0-9A-Z-]+)/
    // Delivered by the command itself: it has exited, and nothing else runs on this database.
    const mail = await smtp.mailTo(ANA, certificateLink, 0)
    const code = certificateLink.exec(textOf(mail))![1]!
    expect(textOf(mail)).toContain("Ana Vidreira")

    const server = await startBuiltServer({ DATA_DIR: world.dataDir, PUBLIC_BASE_URL: "http://roda.test" })
    try {
      const page = await fetch(`${server.base}/certificates/${code}`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain("Ana Vidreira")
    } finally {
      await server.stop()
    }
  })

  it("admin reviews approve delivers the owners' e-mail, written as the command ends, before it exits", async () => {
    const approved = await world.cli(
      ["admin", "reviews", "approve", "business", community, "--as", OPERATOR, "--json"],
      { SMTP_URL: smtp.url }
    )
    expect(approved.code).toBe(0)
    const mail = await smtp.mailTo(OPERATOR, /Escola de Vidro/, 0)
    expect(textOf(mail)).toMatch(/aprovad/)
    // Each e-mail marked sent once delivered: none waits in the outbox for a server to send it again.
    const outbox = await world.withRoda((api) =>
      api.sql<{ recipient: string; sentAt: Date | null }>((sql) => sql`SELECT recipient, sent_at FROM outbox`)
    )
    expect(outbox.filter((row) => row.sentAt === null)).toEqual([])
    expect(smtp.received.length).toBe(outbox.length)
  })
})
