import { blobStoreContract } from "./contract"

blobStoreContract("memory", {
  location: async () => ({ _tag: "Memory" }),
  shared: false,
  pieces: false,
  streams: false,
  part: 256 * 1024
})
