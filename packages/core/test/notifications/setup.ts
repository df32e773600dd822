import { expect } from "vitest"
import { as } from "../support/community"
import { expectOk } from "../support/envelope"
import type { Client } from "../support/harness"

export interface Who {
  readonly token: string
  readonly profileId: string
}
export interface In {
  readonly community: { readonly id: string }
}

/** `user`'s notifications in `setup` (the query string as given). */
export const inbox = async (api: Client, setup: In, user: { token: string }, query = "") =>
  expectOk(await api.get(`/api/notifications${query}`, as(user, setup.community))) as Array<any>

export const unreadCount = async (api: Client, setup: In, user: { token: string }) =>
  (expectOk(await api.get("/api/notifications/unread-count", as(user, setup.community))) as { count: number }).count

/** `user` posts a status post in `setup`: its id. */
export const postStatus = async (api: Client, setup: In, user: { token: string }, body: string) =>
  (expectOk(await api.post("/api/status", { body }, as(user, setup.community)), 201) as { id: string }).id

/** `@[Name](id)`, as editors write a mention. */
export const mention = (who: Who, name = "Nome") => `@[${name}](${who.profileId})`

/** Makes an existing account a member of `setup` (invited by the owner, accepted): its profile there. */
export const join = async (
  api: Client,
  setup: In & { readonly owner: { readonly token: string } },
  user: { readonly token: string; readonly email: string }
) => {
  const invited = await api.post("/api/profiles/create", { email: user.email }, as(setup.owner, setup.community))
  expect(invited.status, JSON.stringify(invited.body)).toBe(201)
  const profileId = invited.body.data.id as string
  expectOk(await api.post(`/api/profiles/${profileId}/accept`, undefined, as(user, setup.community)))
  return { token: user.token, profileId }
}
