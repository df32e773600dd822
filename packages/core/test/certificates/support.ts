import { expect } from "vitest"
import { as, newCommunity, type TestCommunity } from "../support/community"
import { expectCreated, expectOk } from "../support/envelope"
import type { Client } from "../support/harness"
import { createSection, createSpace } from "../support/structure"

export const STAFF_REQUIRED = (role: string) => `Função necessária: owner ou admin ou moderator. Sua função: ${role}`

/** A community with a courses space, a moderator and two members. */
export const certificateCommunity = async (api: Client, label = "Certificados") => {
  const setup: TestCommunity = await newCommunity(api, label)
  const section = await createSection(api, setup, { visibility: "public" })
  const space = await createSpace(api, setup, section.id, { title: "Curso de Cerâmica", visibility: "public" })
  const moderator = await setup.addMember("moderator", "Mara Moderadora")
  const ana = await setup.addMember("member", "Ana Aprendiz")
  const bruno = await setup.addMember("member", "Bruno Bolsista")
  const owner = () => as(setup.owner, setup.community)
  return { ...setup, ownerUser: setup.owner, section, space, moderator, ana, bruno, owner }
}

export type CertificateCommunity = Awaited<ReturnType<typeof certificateCommunity>>

export const createTemplate = async (api: Client, setup: CertificateCommunity, body: Record<string, unknown> = {}) =>
  expectCreated(
    await api.post("/api/certificates/templates", {
      spaceId: setup.space.id,
      name: "Conclusão",
      title: "Certificado de Conclusão",
      body: "Certificamos que {{name}} concluiu {{space}} em {{date}}. Código {{code}}.",
      fontId: "lora",
      orientation: "landscape",
      background: "#fdf6e3",
      ...body
    }, setup.owner())
  )

export const activeTemplate = async (api: Client, setup: CertificateCommunity, body: Record<string, unknown> = {}) => {
  const template = await createTemplate(api, setup, body)
  expectOk(await api.post(`/api/certificates/templates/${template.id}/activate`, undefined, setup.owner()))
  return template
}

/** Polls the batch until it is finished (the in-process job worker runs it). */
export const waitForBatch = async (api: Client, setup: CertificateCommunity, batchId: string, timeoutMs = 60_000) => {
  const started = performance.now()
  while (true) {
    const batch = expectOk(await api.get(`/api/certificates/batches/${batchId}`, setup.owner()))
    if (batch.status === "completed" || batch.status === "completed_with_errors") return batch
    if (performance.now() - started > timeoutMs) {
      throw new Error(`batch still ${batch.status}: ${JSON.stringify(batch)}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Issues a batch and waits until it finishes; returns the batch and the certificates of the batch. */
export const issueAndWait = async (
  api: Client,
  setup: CertificateCommunity,
  templateId: string,
  profileIds: ReadonlyArray<string>
) => {
  const reply = await api.post(
    "/api/certificates",
    { templateId, spaceId: setup.space.id, profileIds },
    setup.owner()
  )
  const queued = expectOk(reply, 202)
  expect(queued.id).toMatch(/^[0-9a-f-]{36}$/)
  const batch = await waitForBatch(api, setup, queued.id)
  const list = expectOk(await api.get(`/api/certificates?batchId=${queued.id}&limit=100`, setup.owner()))
  return { batch, certificates: list as Array<any> }
}

/** Follows a redirect from the web handler (same origin); the raw Response. */
export const fetchLocation = async (roda: { handler: (request: Request) => Promise<Response> }, location: string) => {
  const url = new URL(location)
  return roda.handler(new Request(`http://roda.test${url.pathname}${url.search}`))
}

/**
 * Decodes a PNG far enough to prove it is one: signature, IHDR, and the inflated IDAT stream of
 * exactly the size its width, height and colour type call for.
 */
export const decodePng = async (bytes: Uint8Array) => {
  const { inflateSync } = await import("node:zlib")
  const buffer = Buffer.from(bytes)
  if (buffer.subarray(0, 8).toString("hex") !== "89504e470d0a1a0a") throw new Error("not a PNG signature")
  let offset = 8
  let width = 0
  let height = 0
  let channels = 0
  const idat: Array<Buffer> = []
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset)
    const type = buffer.subarray(offset + 4, offset + 8).toString("latin1")
    const data = buffer.subarray(offset + 8, offset + 8 + length)
    if (type === "IHDR") {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      const colour = data[9]
      channels = colour === 6 ? 4 : colour === 2 ? 3 : colour === 4 ? 2 : 1
      if (data[8] !== 8) throw new Error("only 8-bit PNGs are checked")
    }
    if (type === "IDAT") idat.push(data)
    if (type === "IEND") break
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(idat))
  if (raw.length !== height * (1 + width * channels)) throw new Error("PNG data does not match its header")
  return { width, height, channels }
}
