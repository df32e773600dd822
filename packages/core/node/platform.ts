import type { RodaPlatform } from "../src/app/RodaPlatform"
import { blobStoreFromOptions } from "./blobs"
import { nodeCertificateRenderer } from "./certificates/renderer"
import { nodemailerTransport } from "./mail"
import { nodeNotificationSignals } from "./notificationSignals"
import { scryptPasswords } from "./passwords"
import { nodePublicFetch } from "./publicFetch"
import { DatabaseLive } from "./sql/Database"

/**
 * Roda on Node: PostgreSQL (node-postgres) or embedded PGlite in a folder or in memory, scrypt
 * passwords, SMTP through nodemailer, files under `options.blobDir`, certificates rendered with
 * pdf-lib, satori and resvg with the `@fontsource` fonts, outbound fetches to public addresses only
 * (each address a name resolves to is checked), notification streams woken by `LISTEN` on PostgreSQL.
 */
export const nodePlatform: RodaPlatform = {
  name: "node",
  database: DatabaseLive,
  passwords: scryptPasswords,
  mail: nodemailerTransport,
  blobs: blobStoreFromOptions,
  certificates: nodeCertificateRenderer,
  publicFetch: nodePublicFetch(),
  notificationSignals: nodeNotificationSignals
}
