import { Report } from "../../moderation/Api"
import { type Payloads, withCommunity } from "./payload"

export const moderationPayloads: Payloads = {
  "report.created": {
    summary:
      "A member reported a post, comment, event, profile or submission (the report as `POST /api/reports` answers it; a repeat sends nothing)",
    data: withCommunity(Report.fields)
  }
}
