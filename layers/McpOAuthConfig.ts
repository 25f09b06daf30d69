/**
 * The MCP OAuth settings (docs/configuration.md: `MCP_TOKEN_KEYS`, `MCP_OAUTH_CLIENTS`): the key ring
 * that seals tokens at rest, and the OAuth clients an operator registered by hand with
 * authorization servers that offer no dynamic client registration (RFC 7591).
 */
import { Either, Redacted, Schema } from "effect"
import type { TokenKey } from "./TokenCipher.js"

/** An OAuth client registered by hand with one authorization server (RFC 6749 §2). */
export interface ConfiguredClient {
  readonly clientId: string
  /** None for a public client (`tokenEndpointAuthMethod` `none`). */
  readonly clientSecret: Redacted.Redacted<string> | undefined
  /** RFC 7591 §2 `token_endpoint_auth_method`; default `client_secret_basic` with a secret, else `none`. */
  readonly tokenEndpointAuthMethod: "client_secret_basic" | "client_secret_post" | "none"
}

/** The MCP OAuth settings. */
export interface McpOAuthOptions {
  /** The key ring (first seals, all open), at least one key. */
  readonly tokenKeys: ReadonlyArray<TokenKey>
  /** Clients registered by hand, by issuer identifier (RFC 8414 `issuer`, exactly). */
  readonly clients: Readonly<Record<string, ConfiguredClient>>
}

const ClientEntry = Schema.Struct({
  clientId: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(500)),
  clientSecret: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(2000))),
  tokenEndpointAuthMethod: Schema.optional(Schema.Literal("client_secret_basic", "client_secret_post", "none"))
}).annotations({ parseOptions: { onExcessProperty: "error" } })

const ClientsDocument = Schema.parseJson(Schema.Record({ key: Schema.String, value: ClientEntry }))

const isIssuer = (s: string) => {
  try {
    const u = new URL(s)
    return (u.protocol === "https:" || u.protocol === "http:") && u.search === "" && u.hash === "" && u.username === ""
  } catch {
    return false
  }
}

/**
 * Parses `MCP_OAUTH_CLIENTS`: a JSON object keyed by issuer URL, each value
 * `{clientId, clientSecret?, tokenEndpointAuthMethod?}`; empty text = no clients.
 * Returns the clients or the rule broken (never repeating a secret).
 */
export const parseMcpOAuthClients = (text: string): Readonly<Record<string, ConfiguredClient>> | string => {
  if (text.trim() === "") return {}
  const rule = "MCP_OAUTH_CLIENTS must be a JSON object keyed by issuer URL (http/https, no query) whose values are " +
    "{clientId (1-500 chars), clientSecret? (1-2000 chars), tokenEndpointAuthMethod? (client_secret_basic, client_secret_post or none)}"
  const decoded = Schema.decodeUnknownEither(ClientsDocument)(text)
  if (Either.isLeft(decoded)) return rule
  const out: Record<string, ConfiguredClient> = {}
  for (const [issuer, entry] of Object.entries(decoded.right)) {
    if (!isIssuer(issuer)) return rule
    const method = entry.tokenEndpointAuthMethod ?? (entry.clientSecret === undefined ? "none" : "client_secret_basic")
    if ((method === "none") !== (entry.clientSecret === undefined)) {
      return "MCP_OAUTH_CLIENTS: a client has a clientSecret exactly when its tokenEndpointAuthMethod is not none"
    }
    out[issuer] = {
      clientId: entry.clientId,
      clientSecret: entry.clientSecret === undefined ? undefined : Redacted.make(entry.clientSecret),
      tokenEndpointAuthMethod: method
    }
  }
  return out
}
