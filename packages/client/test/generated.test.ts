import { readFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { GENERATE_COMMAND, GENERATED_FILE, generateOpenApiTypes } from "../scripts/openapiTypes"

describe("the fetch client's types", () => {
  it("are those of the document the server serves", async () => {
    const checkedIn = await readFile(fileURLToPath(new URL(`../${GENERATED_FILE}`, import.meta.url)), "utf8")
    const current = await generateOpenApiTypes()
    if (current !== checkedIn) {
      expect.fail(`packages/client/${GENERATED_FILE} is stale: run \`${GENERATE_COMMAND}\` and commit it`)
    }
  }, 120_000)
})
