/**
 * The second factor (spec §5.2 "recent authentication or MFA"): an account's TOTP
 * authenticator (RFC 6238; its secret sealed at rest with layers/TokenCipher.ts, the last
 * time step used so a code is never accepted twice), its single-use recovery codes
 * (SHA-256 only), and sessions that passed the password but not yet the second factor.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE mfa_totp (
  account_id uuid PRIMARY KEY REFERENCES accounts(id),
  state text NOT NULL CHECK (state IN ('PENDING', 'ENABLED')),
  secret_sealed text NOT NULL,
  last_time_step integer,
  created_at timestamptz NOT NULL,
  enabled_at timestamptz
);

CREATE TABLE mfa_recovery_codes (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  code_hash bytea NOT NULL,
  created_at timestamptz NOT NULL,
  used_at timestamptz
);
CREATE INDEX mfa_recovery_codes_account_idx ON mfa_recovery_codes (account_id);

ALTER TABLE sessions ADD COLUMN mfa_pending boolean NOT NULL DEFAULT false;
`)
})
