// Who may call an operation, as its description in the OpenAPI document says it, and the callers of
// the sweep's second pass.
import { ROLES } from "./seed.mjs"

const ROLE_WORD = "(owner|admin|moderator|finance|member)"
const ROLE_LIST = new RegExp(`^${ROLE_WORD}((, | or )${ROLE_WORD})*( only)?$`, "i")

/**
 * The roles an operation's description admits when it opens with a plain list ("Owner or admin.",
 * "Owner, admin or moderator (403 otherwise).", "Member.", "SuperAdmin only ..."), or undefined when
 * the rule is richer than a list (the author, the holder, public routes): the sweep then only checks
 * that a refused write changed nothing.
 */
export const rolesAllowed = (description = "", method = "GET") => {
  if (/^(SuperAdmin|Platform operators( \(SuperAdmin\))?) only/.test(description)) return new Set()
  // The first sentence without its parentheses: "Owner or admin (…), or the holder leaving" is no list.
  const lead = description.replace(/ \([^()]*\)/g, "").split(/\.(\s|$)/)[0].trim()
  if (!ROLE_LIST.test(lead)) return undefined
  const named = lead.toLowerCase().replace(/ only$/, "").split(/, | or /)
  // "Owner or admin (403 otherwise; finance reads only)": finance reads too.
  if (method === "GET" && /finance reads/i.test(description)) named.push("finance")
  // "Member." admits every member of the community, whatever the role.
  return new Set(named.includes("member") ? ROLES : named)
}

/** The callers of the role pass, least trusted first: each refused write must change nothing. */
export const callersOf = (own, outsider) => [
  ["anonymous", {}],
  ["non-member", { token: outsider.token, community: own.community }],
  ...[...ROLES].reverse().map((role) => [role, own.callers[role]])
]
