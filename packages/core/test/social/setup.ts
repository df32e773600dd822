import { expect } from "vitest"
import { newCommunity } from "../support/community"
import type { wireContract } from "../support/contractReplies"
import { okReply } from "../support/contractReplies"
import { UUID } from "../support/envelope"
import type { Client } from "../support/harness"

export const NOT_FOUND_STATUS = "Publicação não encontrada."
export const NOT_FOUND_COMMENT = "Comentário não encontrado."
export const AUTHOR_OR_STAFF = (role: string) =>
  `Apenas o autor ou owner, admin ou moderator podem alterar isto. Sua função: ${role}`
export const REPLY_DEPTH = "Respostas têm um só nível: responda ao comentário principal."

/** The typed clients of a social suite (`wireContract(roda)`). */
export type Typed = ReturnType<typeof wireContract>

/** A community with an owner, a moderator and two members. */
export const socialCommunity = async (api: Client, label = "Social") => {
  const setup = await newCommunity(api, label)
  const moderator = await setup.addMember("moderator", "Maria Moderadora")
  const alice = await setup.addMember("member", "Alice Alves")
  const bruno = await setup.addMember("member", "Bruno Braga")
  return { ...setup, moderator, alice, bruno }
}

export type SocialCommunity = Awaited<ReturnType<typeof socialCommunity>>

/** `user` posts a status in `setup` (201, a UUID id): the post. */
export const postStatus = async (
  typed: Typed,
  setup: { readonly community: { readonly id: string } },
  user: { token: string },
  body = "Olá!"
) => {
  const { data: reply } = await okReply(typed.as(user, setup.community).status.create({ payload: { body } }), 201)
  expect(reply.data.id).toMatch(UUID)
  return reply.data
}

/** `user` comments on a status post (201, a UUID id): the comment. */
export const commentOn = async (
  typed: Typed,
  setup: { readonly community: { readonly id: string } },
  user: { token: string },
  statusId: string,
  payload: { readonly body: string; readonly parentId?: string },
  message?: string
) => {
  const { data: reply } = await okReply(
    typed.as(user, setup.community).status.comment({ path: { id: statusId }, payload }),
    201
  )
  if (message !== undefined) expect(reply.message).toBe(message)
  expect(reply.data.id).toMatch(UUID)
  return reply.data
}
