export * as HotTexts from "./HotTexts"
export * as PgliteClient from "./PgliteClient"
export * as TextTable from "./TextTable"
