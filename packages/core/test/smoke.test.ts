import { afterAll, describe, it } from "vitest"
import { client, startRoda } from "./support/harness"

const roda = startRoda()
const api = client(roda)
afterAll(() => roda.dispose())

describe("smoke", () => {
  it("shows", async () => {
    const show = (label: string, r: any) => console.log(label, r.status, JSON.stringify(r.body)?.slice(0, 400), [...r.headers.entries()].filter(([k]: any) => k !== "date"))
    const req = new Request("http://roda.test/api/auth/login", { method: "POST", headers: { "content-type": "application/json", "content-length": "5" }, body: JSON.stringify({ email: "x".repeat(2_000_000), password: "a" }) })
    console.log("cl header", req.headers.get("content-length"))
    const r = await roda.handler(req)
    console.log("lying", r.status, (await r.text()).slice(0, 300))
    show("empty", await api.call("POST", "/api/auth/register", { raw: "" }))
    show("nobody", await api.call("POST", "/api/auth/register"))
    show("method", await api.call("DELETE", "/api/auth/login"))
    show("options", await api.call("OPTIONS", "/api/auth/login", { headers: { origin: "http://x.test", "access-control-request-method": "POST", "access-control-request-headers": "authorization,x-communityid" } }))
    show("textplain", await api.call("POST", "/api/auth/login", { raw: '{"email":"a@b.co","password":"x"}', headers: { "content-type": "text/plain" } }))
    show("null", await api.call("POST", "/api/auth/login", { raw: 'null' }))
    show("extra", await api.call("POST", "/api/auth/login", { body: { email: "a@b.co", password: "x", extra: 1 } }))
    show("nested", await api.call("PUT", "/api/profiles/00000000-0000-7000-8000-000000000000/tags", { body: { tags: ["ok", 3] } }))
  })
})
