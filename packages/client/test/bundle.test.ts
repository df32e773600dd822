import { build } from "esbuild"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/** What a host's bundler puts in its bundle for an entry of the client: the files it reads. */
const bundledFiles = async (entry: string) => {
  const result = await build({
    entryPoints: [here(`../src/${entry}`)],
    bundle: true,
    write: false,
    metafile: true,
    platform: "browser",
    format: "esm",
    logLevel: "silent",
    alias: { "@roda/core/api": here("../../core/src/api/index.ts") }
  })
  return Object.keys(result.metafile.inputs)
}

/** The server: the SQL clients and drivers, the embedded database, and core's services and platform. */
const server = [
  /node_modules\/@effect\/sql/,
  /node_modules\/(\.pnpm\/)?pg[@/]/,
  /node_modules\/@electric-sql/,
  /node_modules\/(nodemailer|stripe|satori|@aws-sdk)/,
  /packages\/core\/src\/.*(Repo|Live|Service)\.ts$/,
  /packages\/core\/src\/(app|platform\/(?!bytes|passwordStrength))/,
  /packages\/(sql-pglite|http-node)\//
]

describe("@roda/client in a host's bundle", () => {
  it("the Effect client carries the contract, not the server", async () => {
    const files = await bundledFiles("index.ts")
    expect(files.some((file) => file.includes("packages/core/src/api/RodaApi.ts"))).toBe(true)
    expect(files.filter((file) => server.some((pattern) => pattern.test(file)))).toEqual([])
  }, 120_000)

  it("the fetch client carries neither the server nor Effect", async () => {
    const files = await bundledFiles("fetch.ts")
    expect(files.some((file) => file.includes("openapi-fetch"))).toBe(true)
    expect(
      files.filter((file) =>
        server.some((pattern) => pattern.test(file)) || /node_modules\/(\.pnpm\/)?effect/.test(file)
      )
    )
      .toEqual([])
  }, 120_000)
})
