import { afterAll, beforeAll, bench, describe } from "vitest"
import { client, register, startRoda, uniqueEmail } from "../test/support/harness"

/**
 * A failed sign-in must cost the same whether or not the e-mail has an account, so timing cannot
 * tell which e-mails are registered: the two means below should be within a few percent.
 */
const roda = startRoda({ loginAttemptsPerAccount: 1_000_000, loginAttemptsPerAddress: 1_000_000 })
const api = client(roda)
let email = ""

beforeAll(async () => {
  email = (await register(api)).email
}, 120_000)

afterAll(() => roda.dispose())

describe("failed sign-in", () => {
  bench("wrong password of a registered e-mail", async () => {
    await api.post("/api/auth/login", { email, password: "Wrong1234" })
  })
  bench("unknown e-mail", async () => {
    await api.post("/api/auth/login", { email: uniqueEmail("nobody"), password: "Wrong1234" })
  })
})
