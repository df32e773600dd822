// The three passes of the black-box sweep. Each sends its probes through `run` (which counts, classifies
// and keeps the findings) and returns nothing: the tally is the run's.
import { classify, classifyRefusedWrite, finding } from "./classify.mjs"
import { inParallel, send } from "./http.mjs"
import {
  fillPath,
  fullySeeded,
  isRead,
  lifeOrder,
  malformedProbes,
  plainProbe,
  queryPairs,
  seededBody,
  withQuery
} from "./probes.mjs"
import { callersOf, rolesAllowed } from "./roles.mjs"
import { seedOf } from "./variants.mjs"

/** The tally of a run: requests per pass, statuses, findings, and the budget (quick or full). */
export const newRun = (base, { quick = false, width = 4 } = {}) => {
  const run = { base, quick, width, requests: {}, statuses: {}, findings: [], notes: {} }
  run.note = (key, count = 1) => (run.notes[key] = (run.notes[key] ?? 0) + count)
  /** Sends one probe as `as`, classifies it against `other` (the community it must not see). */
  run.send = async (probe, as, other) => {
    const reply = await send(base, { ...probe, as })
    run.requests[probe.pass] = (run.requests[probe.pass] ?? 0) + 1
    run.statuses[reply.status] = (run.statuses[reply.status] ?? 0) + 1
    if (reply.resent) run.note("requests sent again after a reset kept-alive connection")
    for (const found of classify(probe, reply, other)) run.findings.push(found)
    return reply
  }
  /** An owner's read, for comparing state (not classified: the passes' own requests are). */
  run.read = async (path, owner) => {
    const reply = await send(base, { method: "GET", path, as: owner })
    run.requests.state = (run.requests.state ?? 0) + 1
    return `${reply.status} ${reply.text}`
  }
  return run
}

/** In quick mode, `count` of `items` spread over the list (a different spread each call). */
const sample = (run, items, count) => {
  if (!run.quick || items.length <= count) return items
  const offset = Math.floor(Math.random() * items.length)
  return Array.from(
    { length: count },
    (_, i) => items[(offset + Math.floor((i * items.length) / count)) % items.length]
  )
}

/**
 * Pass 1: every operation with the other community's ids (in the path, in body and query fields that
 * name a kind of resource), sent with the caller's own community in X-CommunityId.
 */
export const crossCommunityPass = async (run, operations, world) => {
  const directions = [[world.a, world.b], [world.b, world.a]]
  const roles = run.quick ? ["owner"] : ["owner", "admin", "member"]
  const probes = []
  for (const [own, other] of directions) {
    for (const operation of [...operations].sort((x, y) => lifeOrder(x) - lifeOrder(y))) {
      const plain = plainProbe(operation, other.seeds)
      const names = operation.parameters.filter((p) => p.in === "path").map((p) => p.name)
      const otherIdInPath = names.some((name) => other.ids.has(seedOf(other.seeds, operation.path, name)))
      const otherInBody = JSON.stringify(plain.json ?? {}) !== JSON.stringify(seededBody(operation, own.seeds) ?? {})
      const otherInQuery = queryPairs(operation, other.seeds).join() !== queryPairs(operation, own.seeds).join()
      if (!otherIdInPath && !otherInBody && !otherInQuery) continue
      for (const role of roles) {
        probes.push({
          probe: { ...plain, pass: "cross", role: `${role} of ${own.label}`, otherIdInPath },
          own,
          other,
          role
        })
      }
    }
  }
  // Removals last: a removal that wrongly succeeded must not hide the other probes' answers.
  const [rest, removals] = [
    probes.filter((p) => p.probe.method !== "DELETE"),
    probes.filter((p) => p.probe.method === "DELETE")
  ]
  const work = ({ probe, own, other, role }) => run.send(probe, own.callers[role], other)
  await inParallel(rest, run.width, work)
  await inParallel(removals, run.width, work)
}

/** The owner's reads that show what a write to `operation` would change: its own path, its parents, its list. */
const readsFor = (operation, gets, seeds) => {
  const segments = operation.path.split("/")
  const prefixes = segments.map((_, i) => segments.slice(0, segments.length - i).join("/")).filter((p) => p.length > 4)
  const family = `/${segments.slice(1, 3).join("/")}`
  const chosen = []
  for (const template of [...prefixes, family]) {
    const get = gets.find((g) => g.path === template)
    if (get !== undefined && fullySeeded(get, seeds) && !chosen.includes(get)) chosen.push(get)
  }
  return chosen.slice(0, 3).map((get) => withQuery(fillPath(get, seeds), queryPairs(get, seeds)))
}

/**
 * Pass 2: every operation of community A as every caller (anonymous, a non-member, each role). A read
 * or write answered 2xx to a role its description refuses is a finding; every write is compared
 * against the owner's reads before and after, and a refused one must have changed nothing. Callers go
 * from least to most trusted; after a write succeeds, the more trusted are not tried (the resource has
 * changed).
 */
export const rolePass = async (run, operations, world) => {
  const own = world.a
  const owner = own.callers.owner
  await restoreRoles(run, own)
  const gets = operations.filter(isRead)
  const callers = callersOf(own, world.outsider)
  const volatile = new Set()
  const snapshot = async (paths) => {
    const state = new Map()
    for (const path of paths.filter((p) => !volatile.has(p))) state.set(path, await run.read(path, owner))
    return state
  }
  // An operation on a kind of resource the API alone cannot make (a sale, a payout: they need a
  // platform operator) is still sent, on a random id: a refused role must still be refused.
  const unseeded = operations.filter((operation) => !fullySeeded(operation, own.seeds)).length
  run.note("operations of the role pass on a random id (no seeded resource of that kind)", unseeded)
  const reads = operations.filter(isRead)
  const writes = operations.filter((operation) => !isRead(operation)).sort((x, y) => lifeOrder(x) - lifeOrder(y))
  const check = (operation, probe, reply, role) => {
    const allowed = rolesAllowed(operation.description, operation.method)
    if (allowed !== undefined && !allowed.has(role) && reply.status >= 200 && reply.status < 300) {
      run.findings.push(
        finding(probe, reply, `answered 2xx to ${role}, which "${operation.description.slice(0, 60)}" refuses`)
      )
    }
  }
  await inParallel(
    reads.flatMap((operation) => sample(run, callers, 2).map((c) => [operation, c])),
    run.width,
    async ([operation, [role, as]]) => {
      const probe = { ...plainProbe(operation, own.seeds), pass: "roles", role }
      check(operation, probe, await run.send(probe, as, world.b), role)
    }
  )
  for (const operation of writes) {
    const paths = readsFor(operation, gets, own.seeds).slice(0, run.quick ? 1 : 3)
    if (paths.length === 0) run.note("writes with no read to compare")
    for (const path of paths) {
      if ((await run.read(path, owner)) !== (await run.read(path, owner))) volatile.add(path)
    }
    let before = await snapshot(paths)
    for (const [role, as] of run.quick ? sample(run, callers.slice(0, 3), 2) : callers) {
      const probe = { ...plainProbe(operation, own.seeds), pass: "roles", role }
      const reply = await run.send(probe, as, world.b)
      check(operation, probe, reply, role)
      const after = await snapshot(paths)
      for (const found of classifyRefusedWrite(probe, reply, before, after)) run.findings.push(found)
      if (reply.status >= 200 && reply.status < 300) break
      before = after
    }
  }
}

/**
 * The earlier passes' well-formed writes (as the owner) may have changed a caller's role: each is put
 * back, so that "member" is a member when the role pass starts.
 */
const restoreRoles = async (run, own) => {
  for (const [role, caller] of Object.entries(own.callers)) {
    const mine = await send(run.base, { method: "GET", path: "/api/communities/my", as: { token: caller.token } })
    const now = mine.body?.data?.find((community) => community.id === own.community)?.role
    if (now === role) continue
    const path = `/api/profiles/${caller.profileId}/role`
    const reply = await send(run.base, { method: "PUT", path, as: own.callers.owner, json: { role } })
    run.note(`callers whose role was restored before the role pass (${role} was ${now}: ${reply.status})`)
  }
}

/** Pass 3: malformed input on every operation, by A's owner on A's resources (removals on random ids). */
export const malformedPass = async (run, operations, world) => {
  const own = world.a
  const probes = [...operations].sort((x, y) => lifeOrder(x) - lifeOrder(y)).flatMap((operation) =>
    sample(run, malformedProbes(operation, own, world.b), 3)
  )
  // Built as they are sent: the full pass holds a few thousand bodies of up to 1 MB.
  await inParallel(
    probes,
    run.width,
    ({ build }) => run.send({ ...build(), pass: "malformed", role: "owner" }, own.callers.owner, world.b)
  )
  // Once anonymously per operation: a wrong id and junk where a body may go.
  const anonymous = operations.map((operation) => {
    const probe = plainProbe(operation, own.seeds)
    const path = operation.path.includes("{")
      ? fillPath(operation, {}, { name: "", value: "" }).replace(/[0-9a-f-]{36}/, "not-a-uuid")
      : probe.path
    return isRead(operation)
      ? { ...probe, path, pass: "malformed", role: "anonymous", variant: "odd path" }
      : {
        ...probe,
        path,
        json: undefined,
        raw: "[{\"a\":",
        contentType: undefined,
        pass: "malformed",
        role: "anonymous",
        variant: "junk body, odd path"
      }
  })
  await inParallel(anonymous, run.width, (probe) => run.send(probe, {}, world.b))
  run.note("malformed probes built", probes.length)
}
