import { ddl } from "./ddl"

/**
 * The client address an operator acted from (`ClientAddress`, after `trustProxy`); null for the CLI
 * and for entries written before this migration.
 */
export default ddl(`ALTER TABLE operator_audit ADD COLUMN client_address text`)
