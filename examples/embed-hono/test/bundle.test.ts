import { build } from "esbuild"
import { spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"

const example = fileURLToPath(new URL("..", import.meta.url))
const outdir = `${example}dist/test-bundles-${process.pid}`

/**
 * The example bundled as a user would (`pnpm bundle`), except that `@roda/*` come from their
 * sources (the workspace's tsconfig paths) so that the test needs no build. `@resvg/resvg-js` is a
 * native module: always external.
 */
const bundle = async (name: string, external: ReadonlyArray<string>) => {
  const outfile = `${outdir}/${name}.mjs`
  await build({
    entryPoints: [`${example}src/server.ts`],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile,
    tsconfig: fileURLToPath(new URL("../../../tsconfig.json", import.meta.url)),
    external: ["@resvg/resvg-js", ...external],
    banner: {
      js:
        "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);"
    },
    logLevel: "error"
  })
  return outfile
}

/** Starts a bundle; resolves once it listens (with its URL) or exits (with its code and output). */
const start = (file: string, dataDir = "memory") =>
  new Promise<{ url?: string; code?: number | null; output: string; stop: () => void }>((resolve) => {
    const child = spawn(process.execPath, [file], { env: { ...process.env, PORT: "0", DATA_DIR: dataDir } })
    let output = ""
    const stop = () => child.kill("SIGTERM")
    const read = (chunk: Buffer) => {
      output += chunk
      const listening = /listening on (http:\/\/\S+)/.exec(output)
      if (listening) resolve({ url: listening[1]!, output, stop })
    }
    child.stdout.on("data", read)
    child.stderr.on("data", read)
    child.on("exit", (code) => resolve({ code, output, stop }))
  })

afterAll(() => rmSync(outdir, { recursive: true, force: true }))

/** The started bundle registers an account (so its database works), then stops. */
const expectServes = async (started: Awaited<ReturnType<typeof start>>) => {
  try {
    expect(started.output).not.toContain("could not start")
    const registered = await fetch(`${started.url}/api/auth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fullName: "Bea Bundle", email: "bea@example.com", password: "Secret123" })
    })
    expect(registered.status).toBe(201)
  } finally {
    started.stop()
  }
}

describe("examples/embed-hono bundled with esbuild", () => {
  it("with PGlite inside the bundle, ready() fails with a clear error and the host decides (no crash on a request)", async () => {
    const started = await start(await bundle("all-in", []))
    started.stop()
    expect(started.url).toBeUndefined()
    expect(started.code).toBe(1)
    expect(started.output).toContain("Roda could not start:")
    expect(started.output).toContain("PGlite's extension archive pg_trgm is not at")
    expect(started.output).toContain("--external:@electric-sql/pglite")
  })

  it("with --external:@electric-sql/pglite it serves requests", async () => {
    await expectServes(await start(await bundle("pglite-external", ["@electric-sql/pglite"])))
  })

  it("on a data folder, without the worker's script beside the bundle, PGlite runs on the host's thread", async () => {
    await expectServes(await start(await bundle("pglite-folder", ["@electric-sql/pglite"]), `${outdir}/data`))
  })
})
