import { Layer } from "effect"
import { feature } from "../http/Feature"
import { Certificates } from "./Certificates"
import { CertificatePagesHttp, CertificatesHttp } from "./Http"
import { Verification } from "./Verification"

/** Certificates: its services (files in the platform's BlobStore) and both HTTP groups. */
export const certificatesFeature = feature(
  Layer.mergeAll(Certificates.Default, Verification.Default),
  Layer.mergeAll(CertificatesHttp, CertificatePagesHttp)
)
