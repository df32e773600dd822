import { rm, writeFile } from "node:fs/promises"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { makeProgress } from "../src/progress"
import {
  activeTemplate,
  addPerson,
  coursesSpace,
  createCommunity,
  errorLines,
  issueArgs as issueArgsOf,
  jsonOf,
  makeWorld,
  operatorAccount,
  register,
  SPAWNS,
  uniqueEmail
} from "./support"

const OPERATOR = uniqueEmail("ops")
const world = await makeWorld([OPERATOR])
const people = { ana: uniqueEmail("ana"), bruno: uniqueEmail("bruno"), carla: uniqueEmail("carla") }
let community: string
let elsewhere: string
let space: string
let templates: { first: string; second: string }
let carlaProfile: string
let anaProfile: string

beforeAll(async () => {
  await world.withRoda(async (api) => {
    const operator = await operatorAccount(api, OPERATOR)
    community = (await createCommunity(api, operator, "Escola de Cerâmica")).id
    space = await coursesSpace(api, operator, community, "Curso de Cerâmica")
    templates = {
      first: await activeTemplate(api, operator, community, space, "Conclusão"),
      second: await activeTemplate(api, operator, community, space, "Mérito")
    }
    anaProfile = await addPerson(api, operator, community, people.ana, "Ana Aprendiz")
    await addPerson(api, operator, community, people.bruno, "Bruno Bolsista")
    carlaProfile = await addPerson(api, operator, community, people.carla, "Carla Ceramista")
    const stranger = await register(api, uniqueEmail("owner"))
    elsewhere = (await createCommunity(api, stranger)).id
  })
})

const issueArgs = (template: string, file: string) => issueArgsOf({ community, space, as: OPERATOR }, template, file)

const csv = async (name: string, content: string) => {
  const path = join(world.dataDir, name)
  await writeFile(path, content)
  return path
}

const codesOf = (batchId: string) =>
  world.withRoda((api) =>
    api.sql<{ id: string; code: string; recipientName: string }>((sql) =>
      sql`SELECT id, code, recipient_name FROM certificates WHERE batch_id = ${batchId} ORDER BY recipient_name`
    )
  )

describe("roda certificates", SPAWNS, () => {
  let batchId: string

  it("issues a batch from a CSV of e-mails and profile ids; failures are shown and retried", async () => {
    const file = await csv(
      "recipients.csv",
      `email;name\n${people.ana};Ana\n"${people.bruno.toUpperCase()}";Bruno\n${carlaProfile};Carla\n\n${people.ana};Ana again\n`
    )
    // Files cannot be stored (a file where the folder should be): every certificate fails.
    const blobs = join(world.dataDir, "blobs")
    await writeFile(blobs, "not a folder")
    const failed = jsonOf(await world.cli([...issueArgs(templates.first, file), "--json"]))
    batchId = failed.id
    expect(failed).toMatchObject({
      communityId: community,
      templateId: templates.first,
      status: "completed_with_errors",
      total: 3,
      issued: 0,
      failed: 3,
      pending: 0
    })

    const shown = jsonOf(
      await world.cli(["certificates", "batch", batchId, "-c", community, "--as", OPERATOR, "--json"])
    )
    expect(shown).toMatchObject({ id: batchId, failed: 3 })
    expect(shown.failedCertificates.map((row: any) => row.recipientName).sort()).toEqual([
      "Ana Aprendiz",
      "Bruno Bolsista",
      "Carla Ceramista"
    ])
    expect(shown.failedCertificates[0].lastError).toBeTruthy()
    const table = await world.cli(["certificates", "batch", batchId, "-c", community, "--as", OPERATOR])
    expect(table.stdout).toMatch(/status\s+completed_with_errors/)
    expect(table.stdout).toMatch(/CERTIFICATE\s+RECIPIENT\s+ATTEMPTS\s+ERROR/)

    await rm(blobs)
    const retried = await world.cli(["certificates", "retry", batchId, "-c", community, "--as", OPERATOR, "--json"])
    const done = jsonOf(retried)
    expect(done).toMatchObject({ id: batchId, status: "completed", issued: 3, failed: 0, retried: 3 })
    // Not a terminal: no progress bar in what was written.
    expect(retried.stderr).not.toContain("█")

    const nothing = await world.cli(["certificates", "retry", batchId, "-c", community, "--as", OPERATOR])
    expect(nothing.code).toBe(1)
    expect(errorLines(nothing)).toEqual(["Nenhum certificado com falha neste lote."])
  })

  it("issues straight away from a CSV of profile ids without a header, and prints the batch", async () => {
    const file = await csv("ids.csv", `${anaProfile}\n${carlaProfile}\n`)
    const run = await world.cli(issueArgs(templates.second, file))
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/status\s+completed\n/)
    expect(run.stdout).toMatch(/issued\s+2\n/)
    expect(run.stdout).toMatch(/total\s+2\n/)
  })

  it("verifies a code, revokes the certificate, and verifies it again", async () => {
    const [certificate] = await codesOf(batchId)
    const valid = jsonOf(await world.cli(["certificates", "verify", certificate!.code, "--json"]))
    expect(valid).toMatchObject({
      code: certificate!.code,
      status: "valid",
      valid: true,
      recipientName: "Ana Aprendiz"
    })

    const revoked = jsonOf(
      await world.cli([
        "certificates",
        "revoke",
        certificate!.id,
        "--reason",
        "Emitido por engano",
        "-c",
        community,
        "--as",
        OPERATOR,
        "--json"
      ])
    )
    expect(revoked).toMatchObject({ id: certificate!.id, status: "revoked", revokeReason: "Emitido por engano" })

    const human = await world.cli(["certificates", "verify", certificate!.code])
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/status\s+revoked/)
    expect(human.stdout).toMatch(/valid\s+false/)

    const unknown = await world.cli(["certificates", "verify", "AAAA-BBBB-CCCC-DDDD"])
    expect(unknown.code).toBe(1)
    expect(errorLines(unknown)).toEqual(["Código de certificado não encontrado."])
  })

  it("refuses recipients who are not members, unreadable lines, non-operators and other communities", async () => {
    const stranger = await csv("stranger.csv", `${people.ana}\nnobody-${Date.now()}@roda.test\n`)
    const notMember = await world.cli(issueArgs(templates.second, stranger))
    expect(notMember.code).toBe(1)
    expect(errorLines(notMember)).toEqual([
      expect.stringMatching(/^nobody-\d+@roda\.test não é membro ativo desta comunidade\.$/)
    ])

    const garbage = await csv("garbage.csv", `${people.ana}\nnot an address\n`)
    const bad = await world.cli(issueArgs(templates.second, garbage))
    expect(bad.code).toBe(1)
    expect(errorLines(bad)).toEqual([`${garbage}, linha 2: "not an address" não é um e-mail nem um id de perfil.`])

    const asMember = await world.cli([
      ...issueArgs(templates.second, garbage).slice(0, -3),
      "--as",
      people.ana,
      garbage
    ])
    expect(asMember.code).toBe(1)
    expect(errorLines(asMember)).toEqual(["Apenas operadores da plataforma (SuperAdmin) podem fazer isto."])

    const other = await world.cli(["certificates", "batch", batchId, "-c", elsewhere, "--as", OPERATOR])
    expect(other.code).toBe(1)
    expect(errorLines(other)).toEqual(["Você não é membro desta comunidade."])

    expect((await world.cli(issueArgs(templates.second, join(world.dataDir, "missing.csv")))).code).toBe(2)
    expect((await world.cli(["certificates", "revoke", "x", "-c", community, "--as", OPERATOR, "--reason", "r"])).code)
      .toBe(2)
  })
})

describe("the progress bar", SPAWNS, () => {
  const stream = (isTTY: boolean) => {
    const written: Array<string> = []
    return {
      written,
      stream: { isTTY, write: (chunk: string) => written.push(chunk) } as unknown as NodeJS.WriteStream
    }
  }

  it("is drawn in place on a terminal and ends with a new line", () => {
    const tty = stream(true)
    const progress = makeProgress(tty.stream)
    progress.update(1, 4, "issued 1")
    progress.update(4, 4, "issued 4")
    progress.end()
    expect(tty.written[0]).toMatch(/^\r█{8}░{22} 1\/4 issued 1/)
    expect(tty.written[1]).toMatch(/^\r█{30} 4\/4 issued 4/)
    expect(tty.written[2]).toBe("\n")
  })

  it("writes nothing when stderr is not a terminal", () => {
    const pipe = stream(false)
    const progress = makeProgress(pipe.stream)
    progress.update(1, 2, "issued 1")
    progress.end()
    expect(pipe.written).toEqual([])
  })
})
