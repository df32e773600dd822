import type { Effect } from "effect"
import { apiKeysExportFiles } from "../apiKeys/personalDataExport"
import { call4papersExportFiles } from "../call4papers/personalDataExport"
import { certificatesExportFiles } from "../certificates/personalDataExport"
import { checkoutExportFiles } from "../commerce/checkout/personalDataExport"
import { subscriptionsExportFiles } from "../commerce/subscriptions/personalDataExport"
import { communitiesExportFiles } from "../communities/personalDataExport"
import { coursesExportFiles } from "../courses/personalDataExport"
import { eventsExportFiles } from "../events/personalDataExport"
import { identityExportFiles } from "../identity/personalDataExport"
import { moderationExportFiles } from "../moderation/personalDataExport"
import { notificationsExportFiles } from "../notifications/personalDataExport"
import { oauthExportFiles } from "../oauth/personalDataExport"
import type { ExportFile } from "../privacy/PersonalData"
import { socialExportFiles } from "../social/personalDataExport"

/**
 * The export files of every feature that holds personal data (`<feature>/personalDataExport.ts`), in
 * the order the ZIP lists them. A feature that adds personal data adds its files here.
 */
export const personalDataFiles: ReadonlyArray<Effect.Effect<ReadonlyArray<ExportFile>, never, any>> = [
  identityExportFiles,
  communitiesExportFiles,
  socialExportFiles,
  coursesExportFiles,
  eventsExportFiles,
  checkoutExportFiles,
  subscriptionsExportFiles,
  certificatesExportFiles,
  call4papersExportFiles,
  notificationsExportFiles,
  moderationExportFiles,
  apiKeysExportFiles,
  oauthExportFiles
]
