import { createServer, type Server } from "node:http"
import { afterAll, beforeAll, expect, it } from "vitest"
import { CHROMIUM, NO_CHROMIUM, skipWhen } from "../../../../testing/skips"
import { expectOk } from "../support/envelope"
import { client, startRoda } from "../support/harness"
import { activeTemplate, type CertificateCommunity, certificateCommunity, issueAndWait } from "./support"

/**
 * The public verification page in a real browser (headless Chromium through playwright-core). Skipped,
 * with the reason printed, where /usr/bin/chromium is absent.
 */
skipWhen(NO_CHROMIUM).describe("verification page in Chromium", () => {
  const roda = startRoda()
  const api = client(roda)
  let server: Server
  let base = ""
  let setup: CertificateCommunity
  let certificate: any

  beforeAll(async () => {
    // Serve Roda's web handler over HTTP so that the browser can load the page and its image.
    server = createServer(async (request, response) => {
      const answer = await roda.handler(
        new Request(`http://roda.test${request.url}`, { method: request.method ?? "GET" })
      )
      response.writeHead(answer.status, Object.fromEntries(answer.headers))
      response.end(Buffer.from(await answer.arrayBuffer()))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const address = server.address()
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`
    setup = await certificateCommunity(api, "Chromium")
    const template = await activeTemplate(api, setup)
    certificate = (await issueAndWait(api, setup, template.id, [setup.ana.profileId])).certificates[0]
  }, 120_000)
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve))
    await roda.dispose()
  })

  it("renders the verdict, the holder, the image and the Open Graph tags", async () => {
    const { chromium } = await import("playwright-core")
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] })
    try {
      const page = await browser.newPage()
      const response = await page.goto(`${base}/certificates/${certificate.code}`)
      expect(response?.status()).toBe(200)
      expect(await page.textContent("#verdict")).toBe("Certificado válido")
      expect(await page.textContent("#recipient")).toBe("Ana Aprendiz")
      expect(await page.textContent("#code")).toBe(certificate.code)
      expect(await page.getAttribute("meta[property=\"og:image\"]", "content")).toContain(
        `/certificates/${certificate.code}/image.png`
      )
      expect(await page.getAttribute("meta[name=\"robots\"]", "content")).toBe("noindex, nofollow")
      // the image loads (served from Roda through the same HTTP server, same path)
      const width = await page.evaluate(async (code) => {
        const image = new Image()
        image.src = `/certificates/${code}/image.png`
        await image.decode()
        return image.naturalWidth
      }, certificate.code)
      expect(width).toBe(1200)
      expectOk(await api.post(`/api/certificates/${certificate.id}/revoke`, { reason: "Teste" }, setup.owner()))
      await page.reload()
      expect(await page.textContent("#verdict")).toBe("Certificado revogado")
      // no card that would still look valid, no image to break
      expect(await page.$("img")).toBeNull()
      expect(await page.$("meta[property=\"og:image\"]")).toBeNull()
    } finally {
      await browser.close()
    }
  }, 120_000)
})
