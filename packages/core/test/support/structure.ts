import { randomUUID } from "node:crypto"
import { expect } from "vitest"
import type { Roda } from "../../src/index"
import { as, type TestCommunity } from "./community"
import { expectCreated } from "./envelope"
import type { Client } from "./harness"
import { query } from "./sql"

export const STAFF_REQUIRED = (role: string) => `Função necessária: owner ou admin ou moderator. Sua função: ${role}`
export const SECTION_REFUSED = "Seção não encontrada ou não pertence a esta comunidade."

export const createSection = async (
  api: Client,
  setup: TestCommunity,
  body: { title?: string; visibility?: string } = {}
) =>
  expectCreated(
    await api.post("/api/sections", { title: "Seção", ...body }, as(setup.owner, setup.community))
  ) as { id: string; title: string; visibility: string; position: number }

export const createSpace = async (
  api: Client,
  setup: TestCommunity,
  sectionId: string,
  body: Record<string, unknown> = {}
) =>
  expectCreated(
    await api.post(
      "/api/spaces",
      { sectionId, title: "Espaço", module: "courses", ...body },
      as(setup.owner, setup.community)
    )
  ) as { id: string; sectionId: string; title: string; visibility: string; position: number; canReadContent: boolean }

/** Sets a space's grants directly (the default AccessCatalog refuses every grant through the API). */
export const setGrants = async (
  roda: Roda,
  spaceId: string,
  grants: { plans?: ReadonlyArray<string>; products?: ReadonlyArray<string> }
) => {
  const rows = await query(
    roda,
    (sql) =>
      sql`UPDATE spaces SET access_subscription_group_ids = ${`{${(grants.plans ?? []).join(",")}}`}::uuid[],
      access_product_ids = ${`{${(grants.products ?? []).join(",")}}`}::uuid[] WHERE id = ${spaceId} RETURNING id`
  )
  expect(rows).toHaveLength(1)
}

/** An entitlement row, as commerce will write it. */
export const entitle = (
  roda: Roda,
  communityId: string,
  profileId: string,
  source: { type: "plan" | "product"; id: string; validUntil?: Date | null }
) =>
  query(roda, (sql) =>
    sql`INSERT INTO entitlements (id, community_id, profile_id, source_type, source_id, valid_until)
      VALUES (${randomUUID()}, ${communityId}, ${profileId}, ${source.type}, ${source.id}, ${source.validUntil ?? null})
      RETURNING id`)
