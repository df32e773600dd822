import { randomUUID } from "node:crypto"
import type { Roda } from "../../src/index"
import { as, newCommunity } from "../support/community"
import type { Client } from "../support/harness"
import { query } from "../support/sql"
import { createSection, createSpace, entitle, setGrants } from "../support/structure"

/** A time `minutes` before now, for rows whose order a test decides. */
export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000)

export const insertStatus = async (roda: Roda, communityId: string, authorId: string, body: string, at: Date) => {
  const id = randomUUID()
  await query(
    roda,
    (sql) =>
      sql`INSERT INTO status_posts (id, community_id, author_profile_id, body, created_at, updated_at)
      VALUES (${id}, ${communityId}, ${authorId}, ${body}, ${at}, ${at}) RETURNING id`
  )
  return id
}

export const insertContent = async (
  roda: Roda,
  communityId: string,
  spaceId: string,
  authorId: string,
  title: string,
  at: Date
) => {
  const id = randomUUID()
  await query(
    roda,
    (sql) =>
      sql`INSERT INTO content_posts (id, community_id, space_id, author_profile_id, title, body, created_at, updated_at)
      VALUES (${id}, ${communityId}, ${spaceId}, ${authorId}, ${title}, ${"Corpo de " + title}, ${at}, ${at})
      RETURNING id`
  )
  return id
}

export const insertReaction = (roda: Roda, communityId: string, type: string, itemId: string, profileId: string) =>
  query(roda, (sql) =>
    sql`INSERT INTO reactions (community_id, item_type, item_id, profile_id, type)
      VALUES (${communityId}, ${type}, ${itemId}, ${profileId}, 'like') RETURNING item_id`)

export const insertComment = (roda: Roda, communityId: string, type: string, itemId: string, profileId: string) =>
  query(roda, (sql) =>
    sql`INSERT INTO comments (id, community_id, item_type, item_id, author_profile_id, body)
      VALUES (${randomUUID()}, ${communityId}, ${type}, ${itemId}, ${profileId}, 'Comentário') RETURNING id`)

/**
 * A community with a public section holding four feed spaces (public, private, gated by a plan,
 * secret with the same plan) and a courses space, and viewers of every kind.
 */
export const feedCommunity = async (api: Client, roda: Roda, label = "Feed") => {
  const setup = await newCommunity(api, label)
  const section = await createSection(api, setup, { visibility: "public" })
  const feedSpace = (visibility: string, title: string) =>
    createSpace(api, setup, section.id, { module: "feed", visibility, title })
  const spaces = {
    public: await feedSpace("public", "Público"),
    private: await feedSpace("private", "Privado"),
    gated: await feedSpace("public", "Pago"),
    secret: await feedSpace("secret", "Secreto"),
    courses: await createSpace(api, setup, section.id, { module: "courses", visibility: "public", title: "Cursos" })
  }
  const plan = randomUUID()
  await setGrants(roda, spaces.gated.id, { plans: [plan] })
  await setGrants(roda, spaces.secret.id, { plans: [plan] })
  const member = await setup.addMember("member", "Maria Member")
  const entitled = await setup.addMember("member", "Enzo Entitled")
  await entitle(roda, setup.community.id, entitled.profileId, { type: "plan", id: plan })
  const moderator = await setup.addMember("moderator", "Moana Moderator")
  const headers = {
    anonymous: { community: setup.community.id },
    member: as(member, setup.community),
    entitled: as(entitled, setup.community),
    moderator: as(moderator, setup.community),
    owner: as(setup.owner, setup.community)
  }
  return { ...setup, section, spaces, member, entitled, moderator, headers }
}

export type FeedCommunity = Awaited<ReturnType<typeof feedCommunity>>
