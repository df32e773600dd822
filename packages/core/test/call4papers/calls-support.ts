import { as, newCommunity } from "../support/community"
import { expectCreated } from "../support/envelope"
import type { Client } from "../support/harness"
import { createSection, createSpace } from "../support/structure"

export const CALL_NOT_FOUND = "Chamada de trabalhos não encontrada."
export const TRACK_NOT_FOUND = "Trilha não encontrada."
export const ORGANISER_REQUIRED = "Apenas owner, admin, moderator ou um dono (owner) da chamada podem fazer isso."
export const STAFF_REQUIRED = (role: string) => `Função necessária: owner ou admin ou moderator. Sua função: ${role}`

/** A community with a public section holding a public call4papers space. */
export const callCommunity = async (api: Client, label = "Chamadas") => {
  const setup = await newCommunity(api, label)
  const section = await createSection(api, setup, { visibility: "public" })
  const space = await createSpace(api, setup, section.id, { visibility: "public", module: "call4papers" })
  return { ...setup, section, space }
}

export type CallCommunity = Awaited<ReturnType<typeof callCommunity>>

/** Opens a call (draft) as `user` (the community owner by default); returns its data. */
export const openCall = async (
  api: Client,
  setup: CallCommunity,
  body: Record<string, unknown> = {},
  user: { token: string } = setup.owner
) =>
  expectCreated(
    await api.post(
      "/api/call4papers",
      { spaceId: setup.space.id, title: "Chamada de palestras", ...body },
      as(user, setup.community)
    )
  )

/** Opens and publishes a call. */
export const publishedCall = async (api: Client, setup: CallCommunity, body: Record<string, unknown> = {}) => {
  const call = await openCall(api, setup, body)
  const reply = await api.post(`/api/call4papers/${call.id}/publish`, undefined, as(setup.owner, setup.community))
  if (reply.status !== 200) throw new Error(`publish failed: ${reply.status} ${JSON.stringify(reply.body)}`)
  return reply.body.data
}
