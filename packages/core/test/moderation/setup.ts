import { as, newCommunity } from "../support/community"
import { expectCreated } from "../support/envelope"
import type { Client } from "../support/harness"
import { createSection, createSpace } from "../support/structure"

export const REPORTED = "Denúncia registrada. Obrigado por avisar."
export const REPORT_EXISTS = "Você já denunciou isto; a denúncia segue registrada."
export const OWN_CONTENT = "Você não pode denunciar o seu próprio conteúdo."
export const SUBJECT_NOT_FOUND = "Conteúdo denunciado não encontrado."
export const CASE_NOT_FOUND = "Caso de moderação não encontrado."
export const RESOLVED = "Caso resolvido."
export const ALREADY_RESOLVED = "Não é possível mudar o caso de resolved para resolved. Movimentos permitidos: nenhum."
export const NOT_SUPPORTED = (action: string, type: string) =>
  `A ação ${action} não se aplica a este tipo de denúncia (${type}): use dismiss.`

/** A community with staff of every rank, three members, a public feed space and a public events space. */
export const moderationCommunity = async (api: Client, label = "Moderação") => {
  const setup = await newCommunity(api, label)
  const admin = await setup.addMember("admin", "Ada Admin")
  const moderator = await setup.addMember("moderator", "Maria Moderadora")
  const moderator2 = await setup.addMember("moderator", "Mauro Moderador")
  const alice = await setup.addMember("member", "Alice Alves")
  const bruno = await setup.addMember("member", "Bruno Braga")
  const carla = await setup.addMember("member", "Carla Costa")
  const section = await createSection(api, setup, { visibility: "public" })
  const feedSpace = await createSpace(api, setup, section.id, { module: "feed", visibility: "public", title: "Mural" })
  const eventSpace = await createSpace(api, setup, section.id, {
    module: "events",
    visibility: "public",
    title: "Agenda"
  })
  const in_ = (user: { token: string }) => as(user, setup.community)
  const status = async (user: { token: string }, body = "Olá, comunidade!") =>
    expectCreated(await api.post("/api/status", { body }, in_(user))) as { id: string }
  const content = async (user: { token: string }, title = "Um post no mural", body = "Texto do post.") =>
    expectCreated(await api.post("/api/content", { spaceId: feedSpace.id, title, body }, in_(user))) as { id: string }
  const comment = async (user: { token: string }, statusId: string, body = "Um comentário.") =>
    expectCreated(await api.post(`/api/status/${statusId}/comment`, { body }, in_(user))) as { id: string }
  const event = async (user: { token: string } = setup.owner) =>
    expectCreated(
      await api.post("/api/events", {
        spaceId: eventSpace.id,
        title: "Encontro mensal",
        type: "online",
        startTime: "2030-05-01T19:00:00Z",
        endTime: "2030-05-01T21:00:00Z",
        joinUrl: "https://meet.example.com/abc"
      }, in_(user))
    ) as { id: string }
  const report = (
    user: { token: string },
    subjectType: string,
    subjectId: string,
    reason = "spam",
    note?: string
  ) => api.post("/api/reports", { subjectType, subjectId, reason, ...(note === undefined ? {} : { note }) }, in_(user))
  return {
    ...setup,
    admin,
    moderator,
    moderator2,
    alice,
    bruno,
    carla,
    feedSpace,
    eventSpace,
    in: in_,
    status,
    content,
    comment,
    event,
    report
  }
}

export type ModerationCommunity = Awaited<ReturnType<typeof moderationCommunity>>
