import type { CommunityRow, ProfileRow } from "./Repo"

/** How a profile row travels on the wire. */
export const profileView = (row: ProfileRow) => ({
  id: row.id,
  communityId: row.communityId,
  accountId: row.accountId,
  email: row.email,
  fullName: row.fullName,
  role: row.role,
  phone: row.phone,
  bio: row.bio,
  avatarUrl: row.avatarUrl,
  tags: row.tags,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})

export const communityView = (row: CommunityRow) => ({
  id: row.id,
  name: row.name,
  slug: row.slug,
  customDomain: row.customDomain,
  settings: row.settings,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString()
})
