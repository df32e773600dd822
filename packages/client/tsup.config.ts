import { defineConfig } from "tsup"
import { declarations, javascriptOnly } from "../../tsup.declarations"

export default defineConfig({
  // `@roda/client` (the Effect client) and `@roda/client/fetch` (the plain fetch client, no Effect).
  entry: ["src/index.ts", "src/fetch.ts"],
  format: ["esm"],
  dts: declarations,
  clean: !javascriptOnly,
  sourcemap: true,
  // Hosts run it in browsers and on servers alike.
  platform: "neutral",
  target: "es2022"
})
