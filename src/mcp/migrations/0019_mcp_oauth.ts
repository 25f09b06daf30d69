/**
 * MCP OAuth to the end (MCP authorization, revision 2025-06-18):
 *
 * - `mcp_connections` keeps what discovery found, so a second authorization needs no
 *   round trips: `oauth_resource` (the MCP server's canonical URI, RFC 8707 `resource`),
 *   `oauth_resource_metadata_url` (where its RFC 9728 metadata was read; a connection
 *   that met a 401 may store the challenge's `resource_metadata` here for discovery to start from),
 *   `oauth_resource_scopes` (its `scopes_supported`),
 *   `oauth_as_metadata` (the authorization server's RFC 8414 / OIDC metadata document),
 *   `oauth_client_source` (CONFIGURED from `MCP_OAUTH_CLIENTS`, REGISTERED by RFC 7591
 *   dynamic registration, or SEEDED: the row's client id came with the data),
 *   `oauth_client_secret` (a registered client's secret, sealed like the tokens),
 *   `oauth_client_auth_method` (its RFC 7591 `token_endpoint_auth_method`) and
 *   `oauth_discovered_at` (when; a discovery older than a day is made again).
 *   `oauth_client_id`, `oauth_authorization_endpoint`, `oauth_issuer` and
 *   `oauth_redirect_uri` of 0010 hold the rest.
 * - `mcp_oauth_tokens`: one connection's tokens, each sealed with AES-256-GCM
 *   (`layers/TokenCipher.ts`: `v1.<kid>.<iv>.<ciphertext+tag>`, bound to the connection
 *   and the column), never the token itself. `expires_at` (null: the server gave no
 *   `expires_in`) drives the refresh before expiry; `account_id` is who authorized.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE mcp_connections
  ADD COLUMN IF NOT EXISTS oauth_resource text,
  ADD COLUMN IF NOT EXISTS oauth_resource_metadata_url text,
  ADD COLUMN IF NOT EXISTS oauth_resource_scopes text[],
  ADD COLUMN IF NOT EXISTS oauth_as_metadata jsonb,
  ADD COLUMN IF NOT EXISTS oauth_client_source text CHECK (oauth_client_source IN ('CONFIGURED','REGISTERED','SEEDED')),
  ADD COLUMN IF NOT EXISTS oauth_client_secret text,
  ADD COLUMN IF NOT EXISTS oauth_client_auth_method text,
  ADD COLUMN IF NOT EXISTS oauth_discovered_at timestamptz;

CREATE TABLE mcp_oauth_tokens (
  connection_id uuid PRIMARY KEY REFERENCES mcp_connections(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  access_token text NOT NULL,
  refresh_token text,
  token_type text NOT NULL,
  scopes text[] NOT NULL,
  expires_at timestamptz,
  obtained_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
`)
})
