import type { CommunityId } from "../../domain/Ids"
import type { Mail } from "../../platform/Mailer"
import type { Subject } from "./Accounts"

const what: Record<Subject, { readonly pt: string; readonly en: string; readonly kind: string }> = {
  business: { pt: "As informações do negócio", en: "The business information", kind: "business-information" },
  payout: { pt: "As configurações de repasse", en: "The payout settings", kind: "payout-settings" }
}

/** The e-mail an owner gets when a platform operator approves or rejects a submission. */
export const reviewMail = (input: {
  readonly subject: Subject
  readonly approved: boolean
  readonly name: string
  readonly reason: string | null
  readonly to: string
  readonly communityId: CommunityId
}): Mail => {
  const { en, kind, pt } = what[input.subject]
  const verdict = input.approved ? { pt: "aprovadas", en: "approved" } : { pt: "recusadas", en: "rejected" }
  const because = input.reason === null ? "" : `\nMotivo / Reason: ${input.reason}`
  return {
    to: input.to,
    communityId: input.communityId,
    kind: `${kind}-${verdict.en}`,
    subject: `${pt} de ${input.name} foram ${verdict.pt} / ${en} of ${input.name} was ${verdict.en}`,
    text:
      `${pt} da comunidade ${input.name} foram ${verdict.pt}.\n${en} of the community ${input.name} was ${verdict.en}.` +
      because
  }
}
