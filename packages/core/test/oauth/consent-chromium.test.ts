import { createServer, type Server } from "node:http"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, expect, it } from "vitest"
import { CHROMIUM, NO_CHROMIUM, skipWhen } from "../../../../testing/skips"
import { newCommunity } from "../support/community"
import { PASSWORD } from "../support/harness"
import { pkce, type ServedRoda, serveRoda } from "../support/oauth"
import { authenticate, registerClient, token } from "./support"

/**
 * The consent page in a real browser (headless Chromium through playwright-core): sign in, choose a
 * community, Deny, then Allow, landing on the client's redirect URI (a local server) with a code.
 * Each screen is checked by what a person sees on it (the rendered text of the page, what is visible,
 * the colour of an error), not only by the DOM. Skipped, with the reason printed, where
 * /usr/bin/chromium is absent.
 */
/** The page's text as rendered: what is hidden (other screens, an empty error) is not in it. */
const seen = (page: Page) => page.locator("body").innerText()
/** The consent page's error line as a person sees it: its text and whether it is on the screen. */
const errorLine = async (page: Page) => ({
  text: await page.locator("#error").innerText(),
  visible: await page.locator("#error").isVisible()
})
const RED = "rgb(176, 0, 32)"

skipWhen(NO_CHROMIUM).describe("the consent page in Chromium", () => {
  let served: ServedRoda
  let callbacks: Server
  let redirectUri = ""
  beforeAll(async () => {
    served = await serveRoda()
    callbacks = createServer((_request, response) => {
      response.setHeader("content-type", "text/html")
      response.end("<p id=\"done\">back at the client</p>")
    })
    await new Promise<void>((resolve) => callbacks.listen(0, "127.0.0.1", resolve))
    const address = callbacks.address()
    redirectUri = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/callback`
  }, 120_000)
  afterAll(async () => {
    await new Promise((resolve) => callbacks?.close(resolve))
    await served.close()
  })

  it("signs in, chooses a community, denies, then allows and lands on the redirect URI with a code", async () => {
    const first = await newCommunity(served.api, "Primeira")
    const second = await newCommunity(served.api, "Segunda")
    // the first community's owner is also an admin of the second
    const invited = await served.api.post("/api/profiles/create", { email: first.owner.email, role: "admin" }, {
      token: second.owner.token,
      community: second.community.id
    })
    await served.api.post(`/api/profiles/${invited.body.data.id}/accept`, undefined, {
      token: first.owner.token,
      community: second.community.id
    })
    const clientId = await registerClient(served.api, [redirectUri])
    const authorizeUrl = (challenge: string, state: string) =>
      `${served.base}/oauth/authorize?${new URLSearchParams({
        response_type: "code",
        client_id: clientId,
        redirect_uri: redirectUri,
        code_challenge: challenge,
        code_challenge_method: "S256",
        state,
        scope: "read"
      })}`

    const { chromium } = await import("playwright-core")
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] })
    try {
      const page = await browser.newPage({ locale: "pt-BR" })
      const refused = pkce()
      await page.goto(authorizeUrl(refused.challenge, "deny-state"))
      expect(page.url()).toContain(`${served.base}/oauth/consent?request_id=`)

      // the sign-in screen: its title and form, no error, nothing of the consent screen
      await page.waitForSelector("#signin.on")
      const signIn = await seen(page)
      expect(signIn).toContain("Conectar assistente")
      expect(signIn).toContain("Entre para continuar")
      expect(signIn).not.toContain("Permitir")
      expect(signIn).not.toContain("Error")
      expect(await errorLine(page)).toEqual({ text: "", visible: false })

      // a wrong password: the spec's message, in red, and the sign-in screen stays
      await page.fill("#email", first.owner.email)
      await page.fill("#password", "not-the-password")
      await page.click("#signin-submit")
      await page.waitForFunction(() => document.getElementById("error")!.textContent !== "")
      expect(await errorLine(page)).toEqual({ text: "E-mail ou senha inválidos.", visible: true })
      expect(await page.locator("#error").evaluate((element) => getComputedStyle(element).color)).toBe(RED)
      expect(await page.locator("#signin-form").isVisible()).toBe(true)

      // signed in: the consent screen, and no error left on it (it used to say "Error" in red here)
      await page.fill("#password", PASSWORD)
      await page.click("#signin-submit")
      await page.waitForSelector("#consent.on")
      expect(await errorLine(page)).toEqual({ text: "", visible: false })
      const consent = await seen(page)
      expect(consent).not.toContain("Error")
      expect(consent).not.toContain("Entre para continuar")
      expect(consent).toContain("Assistente quer acessar sua comunidade como você.")
      expect(consent).toContain(`Depois, você volta para ${new URL(redirectUri).host}.`)
      expect(consent).toContain("ler (ferramentas que não mudam nada)")
      expect(consent).not.toContain("escrever")
      expect(consent).toContain("Escolha a comunidade")
      expect(consent).toMatch(/Primeira \S+ \(owner\)/)
      expect(consent).toMatch(/Segunda \S+ \(admin\)/)
      expect(await page.locator("#allow").isEnabled()).toBe(true)
      expect(await page.locator("#deny").isVisible()).toBe(true)
      expect(await page.locator("#no-community").isVisible()).toBe(false)
      expect(await page.textContent("#client-name")).toBe("Assistente")
      expect(await page.locator("#scopes li").allTextContents()).toEqual(["ler (ferramentas que não mudam nada)"])
      expect(await page.locator("input[name=community]").count()).toBe(2)
      expect(await page.locator("input[name=community]").first().isChecked()).toBe(true)
      await page.click("#deny")
      await page.waitForURL((url) => url.href.startsWith(redirectUri))
      const denied = new URL(page.url())
      expect(denied.searchParams.get("error")).toBe("access_denied")
      expect(denied.searchParams.get("state")).toBe("deny-state")
      expect(denied.searchParams.get("iss")).toBe(served.base)

      // signed in already (the page keeps the token for the tab): choose the second community, Allow
      const allowed = pkce()
      await page.goto(authorizeUrl(allowed.challenge, "allow-state"))
      await page.waitForSelector("#consent.on")
      expect(await seen(page)).not.toContain("Entre para continuar")
      expect(await errorLine(page)).toEqual({ text: "", visible: false })
      await page.check(`input[name=community][value="${second.community.id}"]`)
      await page.click("#allow")
      await page.waitForURL((url) => url.href.startsWith(redirectUri))
      expect(await page.textContent("#done")).toBe("back at the client")
      const landed = new URL(page.url())
      expect(landed.searchParams.get("state")).toBe("allow-state")
      expect(landed.searchParams.get("iss")).toBe(served.base)
      const code = landed.searchParams.get("code")!
      const tokens = await token(served.api, {
        grant_type: "authorization_code",
        code,
        code_verifier: allowed.verifier,
        redirect_uri: redirectUri,
        client_id: clientId
      })
      expect(tokens.status).toBe(200)
      expect(await authenticate(served.roda, tokens.body.access_token)).toMatchObject({
        scopes: ["read"],
        member: { communityId: second.community.id, role: "admin" }
      })
    } finally {
      await browser.close()
    }
  }, 120_000)
})
