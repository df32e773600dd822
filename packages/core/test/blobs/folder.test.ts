import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { blobStoreContract } from "./contract"

const dir = mkdtempSync(join(tmpdir(), "roda-blobs-"))

blobStoreContract("folder", {
  location: async () => ({ _tag: "Folder", dir }),
  shared: true,
  pieces: true,
  cleanup: async () => rmSync(dir, { recursive: true, force: true })
})
