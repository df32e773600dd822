import { writeFile } from "node:fs/promises"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import {
  activeTemplate,
  addPerson,
  coursesSpace,
  createCommunity,
  errorLines,
  jsonOf,
  makeWorld,
  operatorAccount,
  SPAWNS,
  uniqueEmail,
  type User
} from "./support"

/**
 * The binary has no PUBLIC_BASE_URL of its own here: the links it builds use the URL the server ran
 * with (recorded in the database when it started), and without one it refuses to build any.
 */
const SERVER_URL = "https://community.example"
const OPERATOR = uniqueEmail("ops")
const world = await makeWorld([OPERATOR], { serverUrl: SERVER_URL, cliUrl: null })

const REFUSED_PT =
  "Nenhum endereço público conhecido para os links (páginas e e-mails de certificados): defina PUBLIC_BASE_URL (por exemplo https://comunidade.exemplo) ou inicie o servidor uma vez com ele, que o registra no banco de dados."
const REFUSED_EN =
  "No public URL is known for links (certificate pages and e-mails): set PUBLIC_BASE_URL (for example https://community.example), or start the server once with it, which records it in the database."

let operator: User | undefined

/** A community with a space, an active template and a new member; the operator issues there. */
const prepare = () =>
  world.withRoda(async (api) => {
    operator ??= await operatorAccount(api, OPERATOR)
    const community = (await createCommunity(api, operator, "Ateliê")).id
    const space = await coursesSpace(api, operator, community, "Curso de Cerâmica")
    const template = await activeTemplate(api, operator, community, space, "Conclusão")
    const recipient = uniqueEmail("ana")
    await addPerson(api, operator, community, recipient, "Ana Aprendiz")
    return { community, space, template, recipient }
  })

type Prepared = Awaited<ReturnType<typeof prepare>>

const issue = async (at: Prepared) => {
  const file = join(world.dataDir, `recipients-${at.template}.csv`)
  await writeFile(file, `${at.recipient}\n`)
  const args = ["--community", at.community, "--template", at.template, "--space", at.space, "--as", OPERATOR]
  return world.cli(["certificates", "issue", ...args, file, "--json"])
}

/** A query on the world's database by a Roda that records nothing itself. */
const sql = <A extends object>(text: string) =>
  world.withRoda((api) => api.sql<A>((client) => client.unsafe<A>(text)), "given")

const certificateMails = (recipient: string) =>
  world.withRoda(
    (api) =>
      api.sql<{ body: string }>((client) =>
        client`SELECT body FROM outbox WHERE kind = 'certificate-issued' AND lower(recipient) = lower(${recipient})
        ORDER BY created_at`
      ),
    "given"
  )

describe("the public URL of the links the CLI builds", SPAWNS, () => {
  // First in the file: the database is new, no server has run on it.
  it("is refused on a database no server has run on, naming PUBLIC_BASE_URL; other commands run", async () => {
    const refused = await world.cli(["certificates", "verify", "ABCD-EFGH-JKLM-NPQR"])
    expect(refused.code).toBe(1)
    expect(errorLines(refused)).toEqual([REFUSED_PT])
    const english = await world.cli(["certificates", "verify", "ABCD-EFGH-JKLM-NPQR"], { LANG: "en_GB.UTF-8" })
    expect(errorLines(english)).toEqual([REFUSED_EN])
    const migrate = await world.cli(["migrate"])
    expect(migrate.code).toBe(0)
  })

  it("uses the URL the server started with: certificate e-mails and verification links", async () => {
    const at = await prepare()
    expect(await sql<{ value: string }>("SELECT value FROM instance_settings")).toEqual([{ value: SERVER_URL }])
    const batch = jsonOf(await issue(at))
    expect(batch).toMatchObject({ status: "completed", issued: 1 })
    const [certificate] = await sql<{ code: string }>(`SELECT code FROM certificates WHERE batch_id = '${batch.id}'`)
    const mails = await certificateMails(at.recipient)
    expect(mails).toHaveLength(1)
    expect(mails[0]!.body).toContain(`Veja e compartilhe: ${SERVER_URL}/certificates/${certificate!.code}`)
    expect(mails[0]!.body).not.toContain("localhost")

    const verdict = jsonOf(await world.cli(["certificates", "verify", certificate!.code, "--json"]))
    expect(verdict).toMatchObject({
      pageUrl: `${SERVER_URL}/certificates/${certificate!.code}`,
      jwksUrl: `${SERVER_URL}/.well-known/jwks.json`
    })
    // A PUBLIC_BASE_URL of the CLI's own wins over the recorded one (and is not recorded).
    const own = jsonOf(
      await world.cli(["certificates", "verify", certificate!.code, "--json"], {
        PUBLIC_BASE_URL: "https://ops.example"
      })
    )
    expect(own.pageUrl).toBe(`https://ops.example/certificates/${certificate!.code}`)
    expect(await sql<{ value: string }>("SELECT value FROM instance_settings")).toEqual([{ value: SERVER_URL }])
  })

  it("refuses to issue, before issuing anything, once no URL is recorded", async () => {
    const at = await prepare()
    // as on a database only ever served by a Roda from before the URL was recorded
    await sql("DELETE FROM instance_settings RETURNING name")
    const refused = await issue(at)
    expect(refused.code).toBe(1)
    expect(errorLines(refused)).toEqual([REFUSED_PT])
    expect(await certificateMails(at.recipient)).toEqual([])
    expect(await sql(`SELECT id FROM certificate_batches WHERE template_id = '${at.template}'`)).toEqual([])
  })
})
