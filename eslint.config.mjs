import effect from "@effect/eslint-plugin"
import js from "@eslint/js"
import tseslint from "typescript-eslint"

/**
 * Walls between features (issue 11, deliverable 7). A feature is a folder of packages/core/src:
 * identity, communities, structure, courses, events, feed, search, social, commerce/{catalogue,
 * checkout,coupons}, money/{accounts,ledger}. The shared kernels domain/, platform/, sql/ and http/
 * may be imported by all. A file may import from another feature only that feature's contract files:
 *   - its HTTP contract, `Api.ts` / `*Api.ts` (schemas; the composed `RodaApi` needs them), and
 *   - the files named in `contracts` below: a `Context.Tag` interface (like `structure/Access.ts`,
 *     implemented by a `*Live.ts` layer in the owning feature and provided by the root), or, where
 *     listed, the feature's own service as its public face (`identity/Identity.ts`).
 * Never another feature's `Repo.ts` / `*Repo.ts`, `*Live.ts` or helpers: to read or write what a
 * feature owns (its tables), ask it through a contract. To open a wall, add a contract file here.
 * Own-feature imports are `./x`, so the patterns only see cross-feature paths. The composition root
 * (`app/`) and the package index wire every feature and are exempt; nothing else imports `app/`
 * (features build on the kit in `http/` and the composed contract in `api/`).
 */
const contracts = {
  identity: ["Identity"],
  communities: ["Memberships", "Profiles", "MemberStats"],
  structure: ["Access", "Entitlements"],
  courses: ["CourseStats", "CourseCompleted"],
  events: ["EventStats"],
  feed: [],
  search: [],
  social: ["items", "Comments", "Reactions", "EngagementStats"],
  "commerce/catalogue": ["Stock", "SellableProducts"],
  "commerce/checkout": [],
  "commerce/coupons": ["CouponRedemption"],
  "money/accounts": ["SellingStatus"],
  "money/ledger": ["LedgerPosting", "Pricing", "SalesStats"],
  "money/payouts": [],
  "commerce/subscriptions": ["Subscribing", "SubscriptionStats"],
  reports: [],
  certificates: [],
  call4papers: ["calls/Api", "submissions/Api"],
  oauth: ["McpAccess"]
}
const featureWalls = Object.entries(contracts).map(([feature, files]) => {
  const [parent, name] = feature.includes("/") ? feature.split("/") : [undefined, feature]
  const open = ["\\w*Api", ...files].join("|")
  return {
    regex: `^(\\.\\.?/)+${parent === undefined ? "" : `(${parent}/)?`}${name}/(?!(${open})$)`,
    message: `Walls between features (issue 11): from ${feature}/ import only its contracts: ` +
      `${["Api.ts", "*Api.ts", ...files.map((file) => `${file}.ts`)].join(", ")} (eslint.config.mjs).`
  }
})

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.roda/**", "**/coverage/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["scripts/**/*.mjs", "bench/**/*.mjs"],
    languageOptions: {
      globals: {
        process: "readonly",
        console: "readonly",
        URL: "readonly",
        Buffer: "readonly",
        fetch: "readonly",
        setTimeout: "readonly",
        clearTimeout: "readonly"
      }
    }
  },
  {
    files: ["**/*.ts", "**/*.mjs"],
    plugins: { "@effect": effect },
    rules: {
      "@effect/dprint": ["error", {
        config: {
          indentWidth: 2,
          lineWidth: 120,
          semiColons: "asi",
          quoteStyle: "alwaysDouble",
          trailingCommas: "never",
          operatorPosition: "maintain",
          "arrowFunction.useParentheses": "force"
        }
      }],
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "no-constant-condition": ["error", { checkLoops: false }]
    }
  },
  {
    files: ["packages/core/src/**/*.ts"],
    ignores: ["packages/core/src/platform/Ids.ts"],
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "Use Clock (architecture rule 8)." },
        { object: "Math", property: "random", message: "Use the Ids service (architecture rule 8)." },
        { object: "process", property: "env", message: "Read configuration in adapters (rule 7)." }
      ]
    }
  },
  {
    files: ["packages/core/src/**/*.ts"],
    ignores: ["packages/core/src/app/**", "packages/core/src/index.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        patterns: [
          ...featureWalls,
          { regex: "^(\\.\\./)+app/", message: "The composition root (app/) is imported by nobody but the index." }
        ]
      }]
    }
  }
)
