import { Clock, Effect, Option, Schema } from "effect"
import { readAtMost, utf8Text } from "../platform/bytes"
import { Ids } from "../platform/Ids"
import { PublicFetch } from "../platform/PublicFetch"
import { isPublicHost } from "../platform/publicHost"
import { traced } from "../platform/traced"
import { ClientMetadata } from "./Api"
import { OAuthRefusal, refused } from "./ErrorsApi"
import { redirectUriProblem } from "./redirects"
import { RegistrationLimit } from "./RegistrationLimit"
import { type ClientRow, OAuthRepo } from "./Repo"
import { OAuthUrls } from "./urls"

/** The client metadata of RFC 7591 that Roda keeps (others are ignored). */
export interface ClientMetadataInput {
  readonly redirect_uris?: ReadonlyArray<string> | undefined
  readonly client_name?: string | undefined
  readonly client_uri?: string | undefined
  readonly logo_uri?: string | undefined
  readonly scope?: string | undefined
  readonly grant_types?: ReadonlyArray<string> | undefined
  readonly response_types?: ReadonlyArray<string> | undefined
  readonly token_endpoint_auth_method?: string | undefined
  readonly software_id?: string | undefined
  readonly software_version?: string | undefined
}

const GRANT_TYPES = ["authorization_code", "refresh_token"]

/** Client ID Metadata Documents: fetched at most this often, within this time and size. */
const DOCUMENT_TTL_MS = 24 * 60 * 60 * 1000
const FETCH_TIMEOUT_MS = 5000
const MAX_DOCUMENT_BYTES = 5 * 1024

const isWebUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)

interface ValidMetadata {
  readonly metadata: Record<string, unknown>
  readonly redirectUris: ReadonlyArray<string>
}

/** The registered metadata, or why it cannot be registered (RFC 7591 §3.2.2). */
export const validateMetadata = (
  input: ClientMetadataInput
): ValidMetadata | OAuthRefusal<"invalid_redirect_uri" | "invalid_client_metadata", 400> => {
  const redirectUris = input.redirect_uris ?? []
  if (redirectUris.length === 0) return refused("invalid_redirect_uri", "redirect_uris is required")
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri)
    if (problem !== undefined) return refused("invalid_redirect_uri", problem)
  }
  const grantTypes = input.grant_types ?? GRANT_TYPES
  if (!grantTypes.every((grant) => GRANT_TYPES.includes(grant))) {
    return refused("invalid_client_metadata", "grant_types may name only authorization_code and refresh_token")
  }
  if (!(input.response_types ?? ["code"]).every((type) => type === "code")) {
    return refused("invalid_client_metadata", "response_types may name only code")
  }
  for (const field of ["client_uri", "logo_uri"] as const) {
    const value = input[field]
    if (value !== undefined && !isWebUrl(value)) {
      return refused("invalid_client_metadata", `${field} must be an http(s) URL`)
    }
  }
  const metadata = {
    redirect_uris: redirectUris,
    // Public clients only: whatever method was asked for, the answer says `none` (RFC 7591 §2 lets the server replace it).
    token_endpoint_auth_method: "none",
    grant_types: grantTypes,
    response_types: ["code"],
    ...Object.fromEntries(
      (["client_name", "client_uri", "logo_uri", "scope", "software_id", "software_version"] as const)
        .filter((field) => input[field] !== undefined)
        .map((field) => [field, input[field]!.slice(0, 500)])
    )
  }
  return { metadata, redirectUris }
}

/** Text PostgreSQL can keep, at any depth: no NUL character, no unpaired UTF-16 surrogate. */
const storable = (value: unknown): boolean =>
  typeof value === "string"
    ? !value.includes("\u0000") && value.isWellFormed()
    : Array.isArray(value)
    ? value.every(storable)
    : typeof value !== "object" || value === null || Object.values(value).every(storable)

/** A client_id that can name a stored client (NUL would fail the query). */
const usableId = (clientId: string | undefined): clientId is string =>
  clientId !== undefined && clientId !== "" && clientId.length <= 2000 && !clientId.includes("\u0000")

/**
 * A fetched document as registration's metadata, or none: someone else wrote it, so its members
 * are checked as `POST /oauth/register` checks them before anything reads or stores them.
 */
const documentMetadata = Schema.decodeUnknownOption(ClientMetadata)

/** Registered clients (RFC 7591) and Client ID Metadata Documents (an `https` client_id). */
export class Clients extends Effect.Service<Clients>()("@roda/core/OAuthClients", {
  effect: Effect.gen(function*() {
    const repo = yield* OAuthRepo
    const ids = yield* Ids
    const urls = yield* OAuthUrls
    const limit = yield* RegistrationLimit
    const publicFetch = yield* PublicFetch

    const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

    /** `address`: the client's, as the adapter gave it (counted by `RegistrationLimit`). */
    const register = traced("OAuthClients.register")(function*(input: ClientMetadataInput, address?: string) {
      const valid = validateMetadata(input)
      if (valid instanceof OAuthRefusal) return yield* Effect.fail(valid)
      const overLimit = yield* limit.reserve(address)
      if (Option.isSome(overLimit)) {
        return yield* Effect.fail(
          new OAuthRefusal(
            "temporarily_unavailable",
            "too many client registrations; try again later",
            429 as const,
            overLimit.value
          )
        )
      }
      const at = yield* now
      const id = yield* ids.next
      yield* repo.saveClient({
        id,
        kind: "registered",
        name: input.client_name?.slice(0, 200) ?? null,
        uri: input.client_uri ?? null,
        redirectUris: valid.redirectUris,
        metadata: valid.metadata,
        createdAt: at,
        fetchedAt: at
      })
      return { client_id: id, client_id_issued_at: Math.floor(at.getTime() / 1000), ...valid.metadata }
    })

    /** A plain-HTTP document on a loopback host, allowed in tests only. */
    const isLoopbackDocument = (url: URL) =>
      urls.allowHttpMetadataDocuments && url.protocol === "http:" &&
      ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)

    /** Whether a client_id names a metadata document Roda may fetch. */
    const isDocumentUrl = (clientId: string) => {
      if (!URL.canParse(clientId)) return false
      const url = new URL(clientId)
      if (url.protocol === "https:") return url.pathname !== "/" && url.hash === "" && isPublicHost(url.hostname)
      return isLoopbackDocument(url)
    }

    /** Fetches and checks a metadata document; none when it cannot be used. */
    const fetchDocument = (clientId: string) =>
      Effect.tryPromise(async (signal) => {
        const answer = await publicFetch.get(clientId, {
          headers: { accept: "application/json" },
          signal: AbortSignal.any([signal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]),
          loopback: isLoopbackDocument(new URL(clientId))
        })
        if (answer.status < 200 || answer.status > 299) return undefined
        const bytes = await readAtMost(answer.body, MAX_DOCUMENT_BYTES)
        return bytes === undefined ? undefined : JSON.parse(utf8Text(bytes)) as unknown
      }).pipe(
        Effect.map((document) => {
          const named = typeof document === "object" && document !== null && "client_id" in document
            ? document.client_id
            : undefined
          if (named !== clientId) return Option.none<ValidMetadata>()
          return Option.flatMap(documentMetadata(document), (input) => {
            const valid = storable(input) ? validateMetadata(input) : undefined
            return valid === undefined || valid instanceof OAuthRefusal
              ? Option.none<ValidMetadata>()
              : Option.some(valid)
          })
        }),
        Effect.catchAll((error) =>
          Effect.as(
            Effect.logWarning("Client ID Metadata Document not fetched", clientId, error),
            Option.none<ValidMetadata>()
          )
        )
      )

    const fromDocument = (clientId: string) =>
      Effect.gen(function*() {
        const cached = yield* repo.client(clientId)
        const at = yield* now
        if (Option.isSome(cached) && at.getTime() - cached.value.fetchedAt.getTime() < DOCUMENT_TTL_MS) return cached
        const fetched = yield* fetchDocument(clientId)
        if (Option.isNone(fetched)) return cached
        const { metadata, redirectUris } = fetched.value
        const row: ClientRow = {
          id: clientId,
          kind: "metadata_document",
          name: typeof metadata.client_name === "string" ? metadata.client_name.slice(0, 200) : null,
          uri: typeof metadata.client_uri === "string" ? metadata.client_uri : null,
          redirectUris,
          metadata,
          createdAt: Option.isSome(cached) ? cached.value.createdAt : at,
          fetchedAt: at
        }
        yield* repo.saveClient(row)
        return Option.some(row)
      })

    /** The client a client_id names: registered (a UUID) or a metadata document (an https URL). */
    const resolve = traced("OAuthClients.resolve")(function*(clientId: string | undefined) {
      if (!usableId(clientId)) return Option.none<ClientRow>()
      if (isDocumentUrl(clientId)) return yield* fromDocument(clientId)
      return yield* repo.client(clientId)
    })

    /**
     * A client Roda already keeps (registered, or a document fetched by `/oauth/authorize`), never
     * fetched: the token endpoint runs in the request's transaction, which must not wait on the network.
     */
    const known = traced("OAuthClients.known")(function*(clientId: string | undefined) {
      return usableId(clientId) ? yield* repo.client(clientId) : Option.none<ClientRow>()
    })

    return { register, resolve, known }
  })
}) {}
