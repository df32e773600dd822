import { coded, same, text } from "../domain/Text"

/** Messages of the operator audit log (Portuguese by default, English on request). */
export const auditMessages = coded({
  list: text("Registro de auditoria encontrado.", "Audit log found."),
  periodOrder: same("since must be before until"),
  notDate: same("must be an ISO 8601 date (2030-05-01) or date-time with an offset (2030-05-01T19:00:00Z)")
})
