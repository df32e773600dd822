// What the GET sweep reads that the seed does not write, made through the API before it sweeps (once:
// each is made only while its list is empty): a coupon, a downsell offer, a community plan, a track of
// the seeded call with a reviewer, a webhook, and the member's data export.

const empty = async (get, role, path) => {
  const { status, json } = await get(role, path)
  return status === 200 && Array.isArray(json.data) && json.data.length === 0
}

/** Makes what is missing; answers `{ exportId }` (the member's newest export). */
export const prepareSweep = async (c, get, post) => {
  const made = []
  const make = async (role, path, body, listPath = path) => {
    if (!(await empty(get, role, listPath))) return
    const { status, json } = await post(role, path, body)
    made.push(`${path} ${status}${status >= 300 ? ` ${JSON.stringify(json).slice(0, 160)}` : ""}`)
    return json.data
  }
  await make("admin", "/api/coupons", { code: "SWEEP10", percentOff: 10, duration: "once" })
  await make("admin", `/api/subscription-groups/${c.planId}/downsell-offers`, { percentOff: 20, durationCycles: 2 })
  await make("admin", "/api/communities/plans", { name: "Plano da varredura", subscriptionGroupId: c.planId })
  await make("owner", `/api/call4papers/${c.callId}/tracks`, { name: "Trilha da varredura" })
  const tracks = await get("owner", `/api/call4papers/${c.callId}/tracks`)
  const trackId = tracks.json.data?.[0]?.id
  if (trackId) await make("owner", `/api/call4papers/tracks/${trackId}/reviewers`, { profileId: c.admin.id })
  await make("admin", "/api/webhooks", { url: "https://hooks.example.com/roda-sweep", events: ["post.created"] })
  const exported = await post("member", "/api/account/export", {})
  made.push(`/api/account/export ${exported.status}`)
  return { made, exportId: exported.json.id ?? exported.json.data?.id }
}
