import { defineConfig } from "tsup"
import { declarations, javascriptOnly } from "../../tsup.declarations"

export default defineConfig({
  entry: ["src/index.ts", "src/stdio.ts"],
  format: ["esm"],
  dts: declarations,
  clean: !javascriptOnly,
  sourcemap: true,
  target: "node20"
})
