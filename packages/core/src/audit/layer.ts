import { feature } from "../http/Feature"
import { AuditLog } from "./AuditLog"
import { AuditHttp } from "./Http"

/** The operator audit log as operators read it; the writing side is the `OperatorAudit` contract. */
export const auditFeature = feature(AuditLog.Default, AuditHttp)
