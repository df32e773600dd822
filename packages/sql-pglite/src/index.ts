export * as PgliteClient from "./PgliteClient"
export * as TextTable from "./TextTable"
