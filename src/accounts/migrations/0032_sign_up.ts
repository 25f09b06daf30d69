/**
 * Sign-up with email verification and password reset: `accounts.email_verified_at` (an
 * unverified account cannot sign in; every account that existed before is verified as of
 * its creation) and `account_tokens`, the single-use, expiring tokens mailed to an
 * account (stored only as their SHA-256).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz;
UPDATE accounts SET email_verified_at = created_at;

CREATE TABLE account_tokens (
  id uuid PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id),
  purpose text NOT NULL CHECK (purpose IN ('EMAIL_VERIFICATION','PASSWORD_RESET')),
  token_hash bytea NOT NULL UNIQUE,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX account_tokens_account_idx ON account_tokens (account_id, purpose) WHERE used_at IS NULL;
`)
})
