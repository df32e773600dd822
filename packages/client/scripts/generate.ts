import { writeFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { GENERATED_FILE, generateOpenApiTypes } from "./openapiTypes"

const target = fileURLToPath(new URL(`../${GENERATED_FILE}`, import.meta.url))
await writeFile(target, await generateOpenApiTypes())
console.log(`wrote ${target}`)
