import { createServer } from "node:net"

/**
 * A port free on 127.0.0.1 now, for a server a test starts that cannot be given port 0 (PORT must be
 * 1..65535): never a fixed number, which two files in parallel (or another program) could hold.
 */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(
        () => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
      )
    })
  })
