/**
 * Ad campaigns (spec §2.3, §3, §4.2 Growth): the ad packages an order buys
 * (each version with its price and run length), campaigns with their creatives,
 * targets and metrics, the events and visitors behind the metrics, and admin reviews.
 *
 * A campaign's `order_id` is unique: one paid order funds one campaign. A review's
 * `private_decision` lives only here and in no public view. Counters are NUMERIC(78,0)
 * (count strings on the wire); versions bigint (optimistic concurrency).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE TABLE ad_packages (
  id uuid PRIMARY KEY,
  -- the product code of the orders that buy this package (orders.product_code)
  code text NOT NULL UNIQUE,
  name text NOT NULL,
  placement_kind text NOT NULL CHECK (placement_kind IN ('STRIP', 'SQUARE', 'POPUP', 'INLINE')),
  created_at timestamptz NOT NULL
);

CREATE TABLE ad_package_versions (
  id uuid PRIMARY KEY,
  package_id uuid NOT NULL REFERENCES ad_packages(id),
  version integer NOT NULL CHECK (version > 0),
  asset_id uuid NOT NULL REFERENCES assets(id),
  price_units numeric(78,0) NOT NULL CHECK (price_units >= 0),
  -- how long a campaign of this version runs from its startAt
  duration_days integer NOT NULL CHECK (duration_days BETWEEN 1 AND 3660),
  created_at timestamptz NOT NULL,
  UNIQUE (package_id, version)
);

CREATE TABLE ad_campaigns (
  id uuid PRIMARY KEY,
  public_id uuid NOT NULL UNIQUE,
  workspace_id uuid NOT NULL REFERENCES workspaces(id),
  agent_id uuid REFERENCES agents(id),
  order_id uuid UNIQUE REFERENCES orders(id),
  package_version_id uuid NOT NULL REFERENCES ad_package_versions(id),
  name text NOT NULL,
  destination_url text NOT NULL,
  state text NOT NULL CHECK (state IN ('DRAFT', 'PAYMENT_PENDING', 'SUBMITTED', 'UNDER_REVIEW', 'APPROVED', 'SCHEDULED',
    'ACTIVE', 'PAUSED', 'REJECTED', 'COMPLETED', 'CANCELLED', 'SUSPENDED')),
  start_at timestamptz,
  end_at timestamptz,
  targets jsonb NOT NULL DEFAULT '[]',
  impressions numeric(78,0) NOT NULL DEFAULT 0 CHECK (impressions >= 0),
  clicks numeric(78,0) NOT NULL DEFAULT 0 CHECK (clicks >= 0),
  unique_visitors numeric(78,0) NOT NULL DEFAULT 0 CHECK (unique_visitors >= 0),
  created_by uuid REFERENCES accounts(id),
  version bigint NOT NULL CHECK (version > 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX ad_campaigns_workspace_idx ON ad_campaigns (workspace_id, created_at DESC, id DESC);
CREATE INDEX ad_campaigns_recent_idx ON ad_campaigns (created_at DESC, id DESC);

CREATE TABLE ad_creatives (
  id uuid PRIMARY KEY,
  campaign_id uuid NOT NULL REFERENCES ad_campaigns(id),
  revision integer NOT NULL CHECK (revision > 0),
  kind text NOT NULL CHECK (kind IN ('IMAGE', 'TEXT')),
  state text NOT NULL CHECK (state IN ('DRAFT', 'PROCESSING', 'READY', 'APPROVED', 'REJECTED', 'SUSPENDED')),
  headline text,
  body text,
  storage_ref text,
  media_type text,
  width_pixels integer,
  height_pixels integer,
  size_bytes numeric(78,0),
  sha256 text,
  alt_text text,
  created_at timestamptz NOT NULL,
  UNIQUE (campaign_id, revision)
);

-- one row per recorded ad event (the request that recorded it)
CREATE TABLE ad_events (
  id uuid PRIMARY KEY,
  campaign_id uuid NOT NULL REFERENCES ad_campaigns(id),
  kind text NOT NULL CHECK (kind IN ('IMPRESSION', 'CLICK')),
  placement text NOT NULL,
  visitor text NOT NULL,
  occurred_at timestamptz NOT NULL
);
CREATE INDEX ad_events_campaign_idx ON ad_events (campaign_id, occurred_at);

-- the visitors a campaign's impressions reached (metrics.uniqueVisitors counts them)
CREATE TABLE ad_campaign_visitors (
  campaign_id uuid NOT NULL REFERENCES ad_campaigns(id),
  visitor text NOT NULL,
  first_seen_at timestamptz NOT NULL,
  PRIMARY KEY (campaign_id, visitor)
);

CREATE TABLE ad_campaign_reviews (
  id uuid PRIMARY KEY,
  campaign_id uuid NOT NULL REFERENCES ad_campaigns(id),
  audit_event_id uuid NOT NULL REFERENCES admin_audit_events(id),
  reviewer_account_id uuid NOT NULL REFERENCES accounts(id),
  decision text NOT NULL CHECK (decision IN ('APPROVE', 'REJECT', 'SUSPEND')),
  decision_code text NOT NULL,
  public_decision text NOT NULL,
  private_decision text NOT NULL,
  from_state text NOT NULL,
  to_state text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX ad_campaign_reviews_campaign_idx ON ad_campaign_reviews (campaign_id, created_at);
`)
})
