import { defineConfig } from "tsup"

export default defineConfig({
  // `@roda/core` (runtime-agnostic), `@roda/core/api` (the contract alone, for clients) and
  // `@roda/core/node` (the Node platform): one build, so they share their modules (chunks).
  entry: { index: "src/index.ts", api: "src/api/index.ts", node: "node/index.ts", prestart: "node/prestart.ts" },
  format: ["esm"],
  // `pnpm start` builds the JavaScript only (RODA_SKIP_DTS=1): declarations take minutes. It leaves
  // the declarations of an earlier build in place.
  dts: !process.env.RODA_SKIP_DTS,
  clean: !process.env.RODA_SKIP_DTS,
  sourcemap: true,
  target: "node20"
})
