import type { CommunityRow, ProfileRow } from "./Repo"

/**
 * How a profile row travels on the wire. `full` (staff, or the holder's own profile) adds the
 * personal data: login e-mail, phone, account id and manual tags; everyone else gets the public view.
 */
export const profileView = (row: ProfileRow, full = true) => ({
  id: row.id,
  communityId: row.communityId,
  fullName: row.fullName,
  role: row.role,
  status: row.status,
  bio: row.bio,
  avatarUrl: row.avatarUrl,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  ...(full ? { accountId: row.accountId, email: row.email, phone: row.phone, tags: row.tags } : {})
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
