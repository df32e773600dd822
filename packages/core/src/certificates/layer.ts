import { Layer } from "effect"
import { feature } from "../http/Feature"
import { BlobStore } from "../platform/BlobStore"
import { Certificates } from "./Certificates"
import { CertificatePagesHttp, CertificatesHttp } from "./Http"
import { Verification } from "./Verification"

/** Certificates: its services (with the BlobStore chosen from the options) and both HTTP groups. */
export const certificatesFeature = feature(
  Layer.mergeAll(Certificates.Default, Verification.Default).pipe(Layer.provideMerge(BlobStore.fromOptions)),
  Layer.mergeAll(CertificatesHttp, CertificatePagesHttp)
)
