// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document's JSON Schemas, read loosely
export type Schema = Record<string, any>
export interface Operation {
  readonly method: string
  readonly path: string
  readonly description: string
  readonly parameters: ReadonlyArray<{ name: string; in: string; required?: boolean; schema?: Schema }>
  readonly body?: { readonly contentType: string; readonly schema: Schema; readonly example: unknown }
}
type Labelled<T> = ReadonlyArray<readonly [string, T]>

export declare const HUGE_INTEGER: string
export declare const LONG: (n: number) => string
export declare const uniqueTag: () => string
export declare const isObject: (value: unknown) => value is Record<string, unknown>
export declare const operationsOf: (doc: Schema) => ReadonlyArray<Operation>
export declare const typesOf: (schema: Schema) => ReadonlySet<string>
export declare const ownAddresses: (example: Record<string, unknown>) => Record<string, unknown>
export declare const plausible: (schema: Schema) => unknown
export declare const exampleBody: (body: NonNullable<Operation["body"]>) => Record<string, unknown>
export declare const nested: (depth: number) => unknown
export declare const oddStrings: Labelled<string>
export declare const unicodeStrings: Labelled<string>
export declare const propertyVariants: (schema: Schema, options?: { readonly unicode?: boolean }) => Labelled<unknown>
export declare const pathParameterValues: Labelled<() => string>
export declare const queryValues: Labelled<ReadonlyArray<string>>
export declare const wholeBodies: Labelled<string | undefined>
export declare const serverFault: (path: string, status: number, body: unknown) => string | undefined
export declare const excerptOf: (body: unknown) => string
export declare const seedOf: (
  seeds: Readonly<Record<string, string>> | undefined,
  path: string,
  name: string
) => string | undefined
