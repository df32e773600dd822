import { as, newCommunity } from "../support/community"
import { expectCreated, expectOk } from "../support/envelope"
import type { Client } from "../support/harness"

export const NOT_FOUND_STATUS = "Publicação não encontrada."
export const NOT_FOUND_COMMENT = "Comentário não encontrado."
export const AUTHOR_OR_STAFF = (role: string) =>
  `Apenas o autor ou owner, admin ou moderator podem alterar isto. Sua função: ${role}`
export const REPLY_DEPTH = "Respostas têm um só nível: responda ao comentário principal."

/** A community with an owner, a moderator and two members. */
export const socialCommunity = async (api: Client, label = "Social") => {
  const setup = await newCommunity(api, label)
  const moderator = await setup.addMember("moderator", "Maria Moderadora")
  const alice = await setup.addMember("member", "Alice Alves")
  const bruno = await setup.addMember("member", "Bruno Braga")
  return { ...setup, moderator, alice, bruno }
}

export type SocialCommunity = Awaited<ReturnType<typeof socialCommunity>>

export const postStatus = async (api: Client, setup: SocialCommunity, user: { token: string }, body = "Olá!") =>
  expectCreated(await api.post("/api/status", { body }, as(user, setup.community)))

export const react = async (api: Client, setup: SocialCommunity, user: { token: string }, path: string, type: string) =>
  expectOk(await api.post(`${path}/react`, { type }, as(user, setup.community)))
