/**
 * What an API key may do (platform.md "API keys"): each operation of the API needs one scope, from
 * its group's area and its method (`GET` reads, the rest writes). Groups whose area is `null` are not
 * for keys at all: signing in and accounts, OAuth and MCP connections, the keys themselves, and the
 * platform operator's routes. Money is read-only for keys (`money:read`: no key moves money).
 */
export const API_KEY_SCOPES = [
  "community:read",
  "community:write",
  "content:read",
  "content:write",
  "learning:read",
  "learning:write",
  "commerce:read",
  "commerce:write",
  "money:read",
  "webhooks:manage"
] as const

export type ApiKeyScope = typeof API_KEY_SCOPES[number]

type Area = "community" | "content" | "learning" | "commerce" | "money" | "webhooks"

/** Each group of `RodaApi` and its area; a test holds every group to an entry here. */
export const AREA_OF_GROUP: Readonly<Record<string, Area | null>> = {
  identity: null,
  privacyErasure: null,
  privacyExports: null,
  communities: "community",
  profiles: "community",
  sections: "community",
  spaces: "community",
  courses: "learning",
  events: "content",
  feed: "content",
  search: "content",
  status: "content",
  content: "content",
  businessInformation: "money",
  payoutSettings: "money",
  sellingReview: null,
  fees: "money",
  feeOverrides: null,
  ledger: "money",
  coupons: "commerce",
  checkout: "commerce",
  checkoutWebhooks: null,
  gatewayAccounts: null,
  purchases: "commerce",
  products: "commerce",
  subscriptionGroups: "commerce",
  downsellOffers: "commerce",
  pricingTiers: "commerce",
  payouts: "money",
  payoutOperations: null,
  purchasesManage: "commerce",
  reports: "community",
  call4papersCalls: "content",
  call4papersSubmissions: "content",
  subscriptions: "commerce",
  manageSubscriptions: "commerce",
  certificates: "learning",
  certificatePages: null,
  oauth: null,
  oauthConsent: null,
  oauthConnections: null,
  mcp: null,
  operatorAudit: null,
  apiKeys: null,
  webhooks: "webhooks",
  notifications: "community",
  notificationUnsubscribe: null,
  moderation: "community"
}

/** Operations whose scope is not their group's: the reports of money are read with `money:read`. */
const SCOPE_OF_ENDPOINT: Readonly<Record<string, ApiKeyScope>> = {
  "reports.sales": "money:read",
  "reports.subscriptions": "money:read",
  "reports.overview": "money:read"
}

/** The scope an API key needs for `endpoint` of `group` over `method`; undefined: keys may not. */
export const scopeFor = (group: string, endpoint: string, method: string): ApiKeyScope | undefined => {
  const own = SCOPE_OF_ENDPOINT[`${group}.${endpoint}`]
  if (own !== undefined) return own
  const area = AREA_OF_GROUP[group]
  if (area === undefined || area === null) return undefined
  const reads = method === "GET" || method === "HEAD"
  if (area === "money") return reads ? "money:read" : undefined
  if (area === "webhooks") return "webhooks:manage"
  return `${area}:${reads ? "read" : "write"}`
}

export const isApiKeyScope = (value: unknown): value is ApiKeyScope =>
  typeof value === "string" && (API_KEY_SCOPES as ReadonlyArray<string>).includes(value)
