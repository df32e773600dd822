import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { blobStoreContract } from "./contract"

const dir = mkdtempSync(join(tmpdir(), "roda-blobs-"))

blobStoreContract("folder", {
  location: async () => ({ _tag: "Folder", dir }),
  shared: true,
  pieces: true,
  streams: true,
  // Its writes: small pieces are gathered into 256 KB.
  part: 256 * 1024,
  // Temporary files of writes not renamed into place.
  leftovers: async () =>
    readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".tmp")).length,
  cleanup: async () => rmSync(dir, { recursive: true, force: true })
})
