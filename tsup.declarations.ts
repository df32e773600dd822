/**
 * The declarations of a package that imports other workspace packages are built against THEIR built
 * declarations (`dist/*.d.ts`, through the workspace links), not their sources: the root tsconfig's
 * `paths` point at the sources for the type checker and the tests, and through them every package's
 * build type-checked @roda/core's sources again (the declarations of core are built once, by core),
 * and copied core's types into its own declarations instead of importing them from @roda/core.
 * `pnpm build` builds the packages in dependency order, so the ones imported are built first.
 */
export const againstBuiltPackages = { compilerOptions: { paths: {} } }

/**
 * `pnpm start` builds the JavaScript only (`RODA_SKIP_DTS=1`): declarations take minutes, and those of
 * an earlier build are left in place (so such a build does not empty `dist/` either).
 */
export const javascriptOnly = Boolean(process.env.RODA_SKIP_DTS)

/** `dts` of a package that imports other workspace packages: none when `javascriptOnly`. */
export const declarations = javascriptOnly ? false : againstBuiltPackages
