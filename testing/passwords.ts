import { nodePlatform, scryptPasswordsAt } from "../packages/core/node/index"
import type { RodaPlatform } from "../packages/core/src/app/RodaPlatform"

/**
 * The Node platform with scrypt at a sixteenth of the production cost (N = 1,024 instead of 16,384):
 * the suites register and sign in thousands of times, and at the production cost hashing was half of
 * a typical file's time. The same scrypt and stored form (each hash names its cost); the production
 * cost itself is tested by test/unit/passwords.test.ts, and every spawned binary runs with it.
 */
export const TEST_PASSWORD_COST = { N: 1024, r: 8, p: 1 } as const

export const testPlatform: RodaPlatform = { ...nodePlatform, passwords: scryptPasswordsAt(TEST_PASSWORD_COST) }
