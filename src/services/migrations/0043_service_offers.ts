/**
 * Service offers written through the API (spec §2.5, §4.3):
 * - `services_agent_idx`: at most one service per agent and workspace (Services_CreateServiceOffer
 *   creates it on an agent's first offer; concurrent first offers share it);
 * - `service_offers_service_slug_idx`: an offer's `slug` is unique within its service (so per agent);
 * - `service_offers_agent_list_idx`: the published offers of a service, newest first (Services_ListAgentOffers);
 * - `service_offer_prices_window_idx`: an offer's prices by window (the current price, the next `version`);
 * - prices never have a window that ends before it starts (a closed future price has an empty window).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
CREATE UNIQUE INDEX services_agent_idx ON services (workspace_id, agent_id) WHERE agent_id IS NOT NULL;
CREATE UNIQUE INDEX service_offers_service_slug_idx ON service_offers (service_id, slug);
CREATE INDEX service_offers_agent_list_idx ON service_offers (service_id, published_at DESC, id) WHERE state = 'PUBLISHED';
CREATE INDEX service_offer_prices_window_idx ON service_offer_prices (offer_id, effective_from, effective_until);
ALTER TABLE service_offer_prices ADD CONSTRAINT service_offer_prices_window_check
  CHECK (effective_until IS NULL OR effective_until >= effective_from);
`)
})
