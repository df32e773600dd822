import { createServer } from "node:http"
import type { AddressInfo } from "node:net"

/** A stand-in OpenTelemetry collector on 127.0.0.1: keeps every OTLP/HTTP JSON body posted to /v1/traces. */
export const startOtlpCollector = async () => {
  const received: Array<any> = []
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      if (req.url === "/v1/traces") received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")))
      res.writeHead(200, { "content-type": "application/json" })
      res.end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}
