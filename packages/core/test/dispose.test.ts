import { describe, expect, it } from "vitest"
import { PASSWORD, startRoda, uniqueEmail } from "./support/harness"

const encoder = new TextEncoder()

describe("dispose", () => {
  it("waits for the requests in flight before closing the database, and answers new ones 503", async () => {
    const roda = startRoda()
    await roda.ready()
    // A registration whose body arrives in two parts: the second once the test lets it.
    let sendRest!: () => void
    const rest = new Promise<void>((resolve) => {
      sendRest = resolve
    })
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        controller.enqueue(encoder.encode(`{"fullName":"Dora Dispose",`))
        await rest
        controller.enqueue(encoder.encode(`"email":"${uniqueEmail()}","password":"${PASSWORD}"}`))
        controller.close()
      }
    })
    const registering = roda.handler(
      new Request("http://roda.test/api/auth/register", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        duplex: "half"
      } as RequestInit),
      { clientAddress: "127.0.0.1" }
    )
    let disposed = false
    const disposing = roda.dispose().then(() => {
      disposed = true
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(disposed).toBe(false)
    const late = await roda.handler(new Request("http://roda.test/api/auth/me"))
    expect(late.status).toBe(503)

    sendRest()
    const registered = await registering
    expect(registered.status).toBe(201)
    await disposing
    expect(disposed).toBe(true)
  })
})
