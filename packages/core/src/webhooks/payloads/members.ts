import { Schema } from "effect"
import { Profile } from "../../communities/ProfilesApi"
import { type Payloads, withCommunity } from "./payload"

export const memberPayloads: Payloads = {
  "member.joined": {
    summary: "Someone became a member: added, or accepted an invitation (the profile)",
    data: withCommunity(Profile.fields)
  },
  "member.role_changed": {
    summary: "A member's role changed (the profile, and `previousRole`)",
    data: withCommunity({ ...Profile.fields, previousRole: Schema.String })
  },
  "member.left": {
    summary: "A member left or was removed (the profile as it was, and `removedAt`)",
    data: withCommunity({ ...Profile.fields, removedAt: Schema.String })
  }
}
