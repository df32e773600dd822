import { Schema } from "effect"
import type { Roda } from "../../src/index"
import { uniqueAddress } from "../support/auth"
import { bodyOf, from, okReply, wireContract } from "../support/contractReplies"
import type { Client, Reply } from "../support/harness"
import { form } from "../support/oauth"

/**
 * The identity suites' calls on the typed client. Sign-in throttling counts per client address, so
 * every sign-in comes from an address of its own unless the test names one.
 */
export interface SignInOptions {
  /** The caller's address (a fresh one by default). */
  readonly clientAddress?: string | undefined
  readonly language?: "pt" | "en" | undefined
  /** A live token of the account: its holder skips the account's limit over every address. */
  readonly token?: string | undefined
  readonly userAgent?: string | undefined
}

/** `POST /api/auth/login` on `roda`, from `options.clientAddress`. */
export const signIn = (roda: Roda, email: string, password: string, options: SignInOptions = {}) =>
  from(
    {
      clientAddress: options.clientAddress ?? uniqueAddress(),
      headers: options.userAgent === undefined ? {} : { "user-agent": options.userAgent }
    },
    wireContract(roda).clientOf({ token: options.token, language: options.language }).identity.login({
      payload: { email, password }
    })
  )

/** `GET /api/auth/me` on `roda` with `token`. */
export const meOf = (roda: Roda, token: string) => wireContract(roda).as({ token }).identity.me()

/** A token of a fresh sign-in of `email` (200). */
export const tokenOf = async (roda: Roda, email: string, password: string, options: SignInOptions = {}) =>
  (await okReply(signIn(roda, email, password, options), 200)).data.data.token

/** The OAuth token endpoint (outside the contract, raw): `mcp`'s refresh token exchanged. */
export const refreshGrant = (
  api: Client,
  mcp: { readonly refreshToken: string; readonly clientId: string }
): Promise<Reply> =>
  api.call(
    "POST",
    "/oauth/token",
    form({ grant_type: "refresh_token", refresh_token: mcp.refreshToken, client_id: mcp.clientId })
  )

const OAuthError = Schema.Struct({ error: Schema.String })

/** The `error` of an OAuth error answer (RFC 6749 §5.2). */
export const oauthErrorOf = (reply: Reply): string => Schema.decodeUnknownSync(OAuthError)(bodyOf(reply)).error
