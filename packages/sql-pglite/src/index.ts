export * as PgliteClient from "./PgliteClient"
