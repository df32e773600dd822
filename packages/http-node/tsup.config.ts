import { defineConfig } from "tsup"
import { declarations } from "../../tsup.declarations"

// The build script empties dist/ (unless RODA_SKIP_DTS): the two builds below share it, so neither cleans it.
const dts = declarations

/**
 * Packages the `roda-server` binary loads rather than carries: WebAssembly, native addons, files
 * found beside their modules, or CommonJS with optional native parts. They are its dependencies.
 */
const loaded = ["@electric-sql/pglite", "@resvg/resvg-js", "pg", "stripe", "@fontsource"]

/** Every other import is carried (tsup's `noExternal` wins over `external`, hence one pattern). */
const carried = new RegExp(`^(?!(?:${loaded.join("|")})(?:/|$))`)

/**
 * `@effect/platform`'s index re-exports `HttpApiScalar`, whose module holds Scalar's 3.3 MB script in
 * a string. Roda imports that module only on the first `/api/docs` request, but through the index it
 * would be in a chunk every start loads (~30 ms to parse, ~12 MB kept). The index gets an empty
 * namespace instead; the dynamic import resolves the real module.
 */
const scalarOffTheIndex = {
  name: "scalar-off-the-index",
  setup(build: { onResolve: (...args: Array<any>) => void; onLoad: (...args: Array<any>) => void }) {
    build.onResolve(
      { filter: /^\.\/HttpApiScalar\.js$/ },
      (args: { importer: string }) =>
        /@effect[\\/]platform[\\/]dist[\\/]esm[\\/]index\.js$/.test(args.importer)
          ? { path: "HttpApiScalar", namespace: "roda-unused" }
          : undefined
    )
    build.onLoad({ filter: /.*/, namespace: "roda-unused" }, () => ({ contents: "export {}", loader: "js" }))
  }
}

export default defineConfig([
  {
    // The library: hosts import it beside their own copies of Effect and Roda.
    entry: ["src/index.ts"],
    format: ["esm"],
    dts,
    sourcemap: true,
    target: "node20"
  },
  {
    // The binary carries its JavaScript in a few files (dynamic imports stay separate chunks):
    // resolving and loading the ~1,000 modules of Effect, Roda and their dependencies one by one
    // took ~0.85 s of every start, more than half of a fresh embedded one.
    // `pglite-worker.js`, the embedded database's worker thread, sits beside the chunk that starts it.
    entry: ["src/main.ts", "src/pglite-worker.ts"],
    format: ["esm"],
    sourcemap: true,
    target: "node20",
    splitting: true,
    noExternal: [carried],
    external: loaded.map((name) => new RegExp(`^${name}(?:/|$)`)),
    esbuildPlugins: [scalarOffTheIndex],
    // Bundled CommonJS (pg-protocol's helpers, nodemailer) calls `require`.
    banner: {
      js:
        "import { createRequire as __rodaRequire } from \"node:module\"; const require = __rodaRequire(import.meta.url);"
    }
  }
])
