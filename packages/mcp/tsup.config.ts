import { defineConfig } from "tsup"
import { againstBuiltPackages } from "../../tsup.declarations"

// `pnpm start` builds the JavaScript only (RODA_SKIP_DTS=1), leaving the declarations of an earlier
// build in place.
const javascriptOnly = Boolean(process.env.RODA_SKIP_DTS)

export default defineConfig({
  entry: ["src/index.ts", "src/stdio.ts"],
  format: ["esm"],
  dts: javascriptOnly ? false : againstBuiltPackages,
  clean: !javascriptOnly,
  sourcemap: true,
  target: "node20"
})
