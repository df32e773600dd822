export declare const ORDER: ReadonlyArray<string>
export interface Freshness {
  /** Whether the declarations count (default true); `pnpm start` builds JavaScript only. */
  readonly declarations?: boolean
}
export declare const isCurrent: (name: string, options?: Freshness) => boolean
export declare const staleOf: (names: ReadonlyArray<string>, options?: Freshness) => Array<string>
export declare const build: (
  name: string,
  options?: { readonly env?: Record<string, string>; readonly quiet?: boolean }
) => void
