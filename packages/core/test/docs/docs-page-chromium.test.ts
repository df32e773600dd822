import { mkdtempSync, readFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, expect, it } from "vitest"
import { CHROMIUM, NO_CHROMIUM, skipWhen } from "../../../../testing/skips"
import { startRoda } from "../support/harness"

/**
 * The docs page (/api/docs, Scalar) in headless Chromium, with every request outside the server
 * refused: it must load, find an operation through its search, and open it by a deep link. Skipped,
 * with the reason printed, where /usr/bin/chromium is absent.
 */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

skipWhen(NO_CHROMIUM).describe("the docs page in Chromium", () => {
  const roda = startRoda()
  let server: Server
  let base = ""

  beforeAll(async () => {
    // Also a host that mounts Roda under /community, stripping the prefix (as Hono's `mount` does).
    server = createServer(async (request, response) => {
      const path = (request.url ?? "/").replace(/^\/community(?=\/)/, "")
      const answer = await roda.handler(new Request(`${base}${path}`, { method: request.method ?? "GET" }))
      response.writeHead(answer.status, Object.fromEntries(answer.headers))
      response.end(Buffer.from(await answer.arrayBuffer()))
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const address = server.address()
    base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`
  })
  afterAll(async () => {
    await new Promise((resolve) => server?.close(resolve))
    await roda.dispose()
  })

  it("works offline: search finds an operation, which opens and has a deep link", async () => {
    const { chromium } = await import("playwright-core")
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] })
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      const outside: Array<string> = []
      await page.route("**/*", (route) => {
        const url = route.request().url()
        if (url.startsWith(base) || url.startsWith("data:")) return route.continue()
        outside.push(url)
        return route.abort()
      })
      const response = await page.goto(`${base}/api/docs`, { timeout: 120_000 })
      expect(response?.status()).toBe(200)
      // The sidebar lists the tags.
      await page.getByText("Authentication", { exact: true }).first().waitFor({ timeout: 90_000 })

      await page.getByText("Search", { exact: true }).first().click()
      await page.keyboard.type("feed")
      const result = page.getByRole("option").filter({ hasText: "Get the community feed" }).first()
      await result.waitFor({ timeout: 30_000 })
      await result.click()
      const heading = page.getByRole("heading", { name: "Get the community feed" }).first()
      await heading.waitFor({ timeout: 30_000 })
      await page.waitForFunction(() => window.location.hash.length > 1, undefined, { timeout: 30_000 })
      const deepLink = page.url()
      expect(deepLink).toBe(`${base}/api/docs#tag/feed/get/api/feed`)

      const file = join(mkdtempSync(join(tmpdir(), "roda-docs-")), "docs-search.png")
      // Scalar scrolls to the operation and paints it after the hash changes: a screenshot taken in
      // between is a near-blank page (5 kB), so it is taken again until the page is painted.
      await expect.poll(async () => (await page.screenshot({ path: file })).length, { timeout: 30_000 })
        .toBeGreaterThan(20_000)
      const png = readFileSync(file)
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true)
      expect(png.readUInt32BE(16)).toBe(1280) // IHDR width
      expect(png.readUInt32BE(20)).toBe(900) // IHDR height

      // The deep link opens the same operation in a fresh page.
      const again = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      await again.route("**/*", (route) => route.request().url().startsWith(base) ? route.continue() : route.abort())
      await again.goto(deepLink)
      await again.getByRole("heading", { name: "Get the community feed" }).first().waitFor({ timeout: 90_000 })

      expect(outside).toEqual([])
    } finally {
      await browser.close()
    }
  }, 240_000)

  it("sends \"Test request\" under the prefix Roda is mounted at", async () => {
    const { chromium } = await import("playwright-core")
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox"] })
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      const sent: Array<string> = []
      await page.route("**/*", (route) => {
        const url = route.request().url()
        if (!url.startsWith(base) && !url.startsWith("data:")) return route.abort()
        if (!url.includes("/api/docs")) sent.push(url)
        return route.continue()
      })
      await page.goto(`${base}/community/api/docs#tag/feed/get/api/feed`, { timeout: 120_000 })
      await page.getByRole("heading", { name: "Get the community feed" }).first().waitFor({ timeout: 90_000 })
      // The first operation of the tag (the feed's recommendations) has the first "Test Request" button.
      await page.getByRole("button", { name: /test request/i }).first().click()
      const answered = page.waitForResponse((response) => /\/api\/(?!docs)/.test(response.url()), { timeout: 60_000 })
      await page.getByRole("button", { name: /^send/i }).first().click()
      const response = await answered
      expect(new URL(response.url()).pathname).toMatch(/^\/community\/api\/feed/)
      // Roda's answer, through the prefix; nothing was sent outside it.
      expect(response.headers()["content-type"]).toMatch(/json/)
      expect(sent.filter((url) => new URL(url).pathname.startsWith("/api/"))).toEqual([])
    } finally {
      await browser.close()
    }
  }, 240_000)
})
