import { defineConfig } from "tsup"

export default defineConfig({
  // The worker thread's script sits beside the bundle, where `thread: "worker"` looks for it.
  entry: ["src/index.ts", "src/prestart.ts", "src/pglite-worker.ts"],
  format: ["esm"],
  // `pnpm start` builds the JavaScript only (RODA_SKIP_DTS=1): declarations take minutes. It leaves
  // the declarations of an earlier build in place.
  dts: !process.env.RODA_SKIP_DTS,
  clean: !process.env.RODA_SKIP_DTS,
  sourcemap: true,
  target: "node20"
})
