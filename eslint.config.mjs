import effect from "@effect/eslint-plugin"
import js from "@eslint/js"
import { builtinModules } from "node:module"
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
 * The same walls stand in SQL: a feature (a kernel too) names only its own tables and reads what
 * others own through the views the owners publish (migration 0029; the owner of every table and
 * view is declared in `src/sql/ownership.ts`); nobody writes another's tables or any view. Checked,
 * not linted, by packages/core/test/unit/sqlWalls.test.ts.
 * Own-feature imports are `./x`, so the patterns only see cross-feature paths. The composition root
 * (`app/`) and the package index wire every feature and are exempt; nothing else imports `app/`
 * (features build on the kit in `http/` and the composed contract in `api/`).
 */
const contracts = {
  identity: ["Identity"],
  communities: ["Memberships", "Profiles", "MemberStats", "CommunityTimeZone"],
  structure: ["Access", "Entitlements"],
  courses: ["CourseStats", "CourseCompleted"],
  events: ["EventStats", "EventAttended", "Moderation"],
  feed: [],
  search: [],
  social: ["items", "Comments", "Reactions", "EngagementStats", "Moderation", "Pending"],
  "commerce/catalogue": ["Stock", "SellableProducts"],
  "commerce/checkout": ["ChargeDisputes"],
  "commerce/coupons": ["CouponRedemption"],
  "money/accounts": ["SellingStatus"],
  "money/ledger": ["LedgerPosting", "Pricing", "SalesStats"],
  "money/payouts": [],
  "commerce/subscriptions": ["Subscribing", "SubscriptionStats"],
  reports: [],
  certificates: [],
  call4papers: ["calls/Api", "submissions/Api", "submissions/SubmissionSubjects"],
  oauth: ["McpAccess", "Grants"],
  audit: ["OperatorAudit"],
  apiKeys: ["ApiKeyAccess", "scopes", "operationScope"],
  webhooks: ["WebhookEvents", "eventTypes"],
  notifications: ["Notify", "kinds"],
  moderation: [],
  privacy: ["PersonalData"]
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

/**
 * Core is runtime-agnostic (issue 16): packages/core/src uses web standards only. Node's modules,
 * `Buffer` and `process` live in packages/core/node (`@roda/core/node`), behind the ports of
 * `RodaPlatform`. Bare builtin names are refused too (`crypto` the module, not the global).
 */
const nodeBuiltins = builtinModules.filter((name) => !name.startsWith("_"))
const runtimeAgnostic = {
  paths: nodeBuiltins.map((name) => ({
    name,
    message: "packages/core/src is runtime-agnostic: put Node code in packages/core/node (issue 16)."
  })),
  patterns: [{
    regex: "^node:",
    message: "packages/core/src is runtime-agnostic: put Node code in packages/core/node (issue 16)."
  }]
}

export default tseslint.config(
  // packages/client/generated/openapi.ts is generated (pnpm --filter @roda/client generate).
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      "**/.roda/**",
      "**/coverage/**",
      "packages/client/generated/openapi.ts"
    ]
  },
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
        clearTimeout: "readonly",
        performance: "readonly",
        AbortSignal: "readonly",
        Headers: "readonly"
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
        { object: "process", property: "env", message: "Read configuration in adapters (rule 7)." },
        {
          object: "Effect",
          property: "fn",
          message:
            "Use traced(name) from platform/traced.ts: Effect.fn costs a stack trace and a span per call even with tracing off (issue 11)."
        }
      ]
    }
  },
  {
    files: ["packages/core/src/**/*.ts"],
    rules: {
      "no-restricted-globals": [
        "error",
        { name: "Buffer", message: "Use Uint8Array and platform/bytes.ts (core is runtime-agnostic, issue 16)." },
        { name: "process", message: "Core is runtime-agnostic (issue 16): Node code goes in packages/core/node." },
        { name: "__dirname", message: "Core is runtime-agnostic (issue 16)." },
        { name: "__filename", message: "Core is runtime-agnostic (issue 16)." },
        { name: "require", message: "Core is runtime-agnostic (issue 16)." }
      ]
    }
  },
  {
    // app/ and the index are outside the feature walls below, not outside this one.
    files: ["packages/core/src/app/**/*.ts", "packages/core/src/index.ts"],
    rules: { "no-restricted-imports": ["error", runtimeAgnostic] }
  },
  {
    files: ["packages/core/src/**/*.ts"],
    ignores: ["packages/core/src/app/**", "packages/core/src/index.ts"],
    rules: {
      "no-restricted-imports": ["error", {
        paths: runtimeAgnostic.paths,
        patterns: [
          ...runtimeAgnostic.patterns,
          ...featureWalls,
          { regex: "^(\\.\\./)+app/", message: "The composition root (app/) is imported by nobody but the index." }
        ]
      }]
    }
  }
)
