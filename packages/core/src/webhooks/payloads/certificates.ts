import { Certificate } from "../../certificates/Api"
import { type Payloads, withCommunity } from "./payload"

export const certificatePayloads: Payloads = {
  "certificate.issued": {
    summary: "A certificate was issued (by staff, automatically, on reissue or retry), once its PDF is ready " +
      "(the certificate as its detail route answers staff)",
    data: withCommunity(Certificate.fields)
  },
  "certificate.revoked": {
    summary: "A certificate was revoked (the certificate as its detail route answers staff, with `revokeReason`)",
    data: withCommunity(Certificate.fields)
  }
}
