/**
 * Wallets (spec §2.8, §2.14) and trust feedback (spec §2.9).
 *
 * - `wallets`: a wallet address on a network, owned by one account.
 * - `wallet_policies`: provider policies of a wallet; each carries its cancellation
 *   challenge's expiry (Wallets_CancelWalletPolicy answers 410 after it).
 * - `wallet_profiles` (+ `wallet_profile_followers`): the public profile of an address,
 *   at most one per wallet.
 * - `feedback`: reviews of agents by accounts; `revision` is the concurrency counter.
 * - `agent_trust_figures`: the trust figures of every agent, counting only PUBLISHED
 *   feedback (withdrawn, hidden and pending feedback never counts).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE wallets (
  id uuid PRIMARY KEY,
  owner_account_id uuid NOT NULL REFERENCES accounts(id),
  network_id uuid NOT NULL REFERENCES networks(id),
  address text NOT NULL,
  created_at timestamptz NOT NULL,
  UNIQUE (network_id, address)
);
CREATE INDEX wallets_owner_idx ON wallets (owner_account_id);

CREATE TABLE wallet_policies (
  id uuid PRIMARY KEY,
  wallet_id uuid NOT NULL REFERENCES wallets(id),
  phase text NOT NULL CHECK (phase IN ('CREATE','ATTACH')),
  state text NOT NULL CHECK (state IN ('PREPARED','DISPATCHING','OBSERVING','MANUAL_REVIEW','COMPLETE','CANCELLED')),
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  provider_policy_id text CHECK (length(provider_policy_id) <= 300),
  candidate_provider_policy_id text CHECK (length(candidate_provider_policy_id) <= 300),
  failure_code text CHECK (length(failure_code) <= 100),
  cancellation_challenge_expires_at timestamptz NOT NULL,
  cancellation_reason text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  completed_at timestamptz
);
CREATE INDEX wallet_policies_wallet_idx ON wallet_policies (wallet_id);

CREATE TABLE wallet_profiles (
  id uuid PRIMARY KEY,
  wallet_id uuid UNIQUE REFERENCES wallets(id),
  network_id uuid NOT NULL REFERENCES networks(id),
  address text NOT NULL,
  display_name text,
  bio text,
  visibility text NOT NULL CHECK (visibility IN ('PRIVATE','PUBLIC')),
  favorite_collection_visibility text NOT NULL CHECK (favorite_collection_visibility IN ('PRIVATE','PUBLIC')),
  version bigint NOT NULL DEFAULT 1 CHECK (version > 0),
  published_at timestamptz,
  updated_at timestamptz NOT NULL,
  UNIQUE (network_id, address)
);

CREATE TABLE wallet_profile_followers (
  profile_id uuid NOT NULL REFERENCES wallet_profiles(id),
  account_id uuid NOT NULL REFERENCES accounts(id),
  created_at timestamptz NOT NULL,
  PRIMARY KEY (profile_id, account_id)
);

CREATE TABLE feedback (
  id uuid PRIMARY KEY,
  agent_id uuid NOT NULL REFERENCES agents(id),
  author_account_id uuid NOT NULL REFERENCES accounts(id),
  rating_ppm integer NOT NULL CHECK (rating_ppm BETWEEN 0 AND 1000000),
  category text NOT NULL CHECK (category IN ('QUALITY','RELIABILITY','SAFETY','VALUE','COMMUNICATION','OTHER')),
  title text NOT NULL,
  body text NOT NULL,
  state text NOT NULL,
  authenticity_state text NOT NULL,
  revision bigint NOT NULL DEFAULT 1 CHECK (revision > 0),
  helpful_count bigint NOT NULL DEFAULT 0 CHECK (helpful_count >= 0),
  not_helpful_count bigint NOT NULL DEFAULT 0 CHECK (not_helpful_count >= 0),
  response_count bigint NOT NULL DEFAULT 0 CHECK (response_count >= 0),
  withdrawal_reason text,
  withdrawn_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX feedback_agent_idx ON feedback (agent_id, state);

-- Trust figures of an agent: only PUBLISHED feedback counts. averageRatingPpm is NULL without any.
CREATE VIEW agent_trust_figures AS
  SELECT a.id AS agent_id,
         count(f.id)::bigint AS feedback_count,
         round(avg(f.rating_ppm))::integer AS average_rating_ppm,
         (count(f.id) FILTER (WHERE f.authenticity_state = 'VERIFIED'))::bigint AS verified_feedback_count
    FROM agents a
    LEFT JOIN feedback f ON f.agent_id = a.id AND f.state = 'PUBLISHED'
   GROUP BY a.id;
`)
})
