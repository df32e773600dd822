import { defineConfig } from "tsup"
import { againstBuiltPackages } from "../../tsup.declarations"

export default defineConfig({
  entry: ["src/index.ts", "src/main.ts"],
  format: ["esm"],
  dts: againstBuiltPackages,
  clean: true,
  sourcemap: true,
  target: "node20"
})
