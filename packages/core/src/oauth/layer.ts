import { Layer } from "effect"
import { feature } from "../http/Feature"
import { Authorization } from "./Authorization"
import { Clients } from "./Clients"
import { Connections } from "./Connections"
import { McpEndpointHttp, OAuthConnectionsHttp, OAuthConsentHttp, OAuthServerHttp } from "./Http"
import { RegistrationLimit } from "./RegistrationLimit"
import { OAuthRepo } from "./Repo"
import { TokenEndpoint } from "./TokenEndpoint"
import { OAuthUrls } from "./urls"

const services = Layer.mergeAll(Authorization.Default, TokenEndpoint.Default, Connections.Default).pipe(
  Layer.provideMerge(Clients.Default.pipe(Layer.provide(RegistrationLimit.Default))),
  Layer.provideMerge(Layer.mergeAll(OAuthRepo.Default, OAuthUrls.layer))
)

export const oauthFeature = feature(
  services,
  Layer.mergeAll(OAuthServerHttp, OAuthConsentHttp, OAuthConnectionsHttp, McpEndpointHttp)
)
