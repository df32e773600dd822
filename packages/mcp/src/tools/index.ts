import type { ToolSpec } from "../tool"
import { callForPapersTools } from "./callsForPapers"
import { commerceTools } from "./commerce"
import { communityTools } from "./community"
import { learningTools } from "./learning"
import { notificationTools } from "./notifications"
import { recordTools } from "./records"
import { socialTools } from "./social"
import { webhookTools } from "./webhooks"

/** Every tool Roda offers an assistant. */
export const tools: ReadonlyArray<ToolSpec> = [
  ...communityTools,
  ...socialTools,
  ...learningTools,
  ...commerceTools,
  ...recordTools,
  ...callForPapersTools,
  ...webhookTools,
  ...notificationTools
]
