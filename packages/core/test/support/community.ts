import { uniqueTag } from "./envelope"
import { type Client, makeCommunity } from "./harness"

/** A community with a unique name, so generated slugs never clash with those of the other tests of the file. */
export const newCommunity = (api: Client, label = "Comunidade") => makeCommunity(api, `${label} ${uniqueTag()}`)

export type TestCommunity = Awaited<ReturnType<typeof newCommunity>>

/** Call options for `user` acting in `community` (token plus X-CommunityId). */
export const as = (user: { readonly token: string }, community: { readonly id: string }) => ({
  token: user.token,
  community: community.id
})

export const NOT_MEMBER = "Você não é membro desta comunidade."
