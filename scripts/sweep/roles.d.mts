export declare const rolesAllowed: (description?: string, method?: string) => ReadonlySet<string> | undefined
export declare const callersOf: (
  own: { readonly community: string; readonly callers: Record<string, unknown> },
  outsider: { readonly token: string }
) => Array<readonly [string, Record<string, unknown>]>
