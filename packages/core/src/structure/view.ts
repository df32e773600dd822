import type { SectionRow, SpaceRow } from "./Repo"

export const sectionView = (row: SectionRow) => ({
  id: row.id,
  communityId: row.communityId,
  title: row.title,
  visibility: row.visibility,
  position: row.position,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const spaceView = (row: SpaceRow) => ({
  id: row.id,
  communityId: row.communityId,
  sectionId: row.sectionId,
  title: row.title,
  module: row.module,
  visibility: row.visibility,
  access: { subscriptionGroupIds: row.accessSubscriptionGroupIds, productIds: row.accessProductIds },
  postingPolicy: row.postingPolicy,
  position: row.position,
  canReadContent: row.canReadContent,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})
