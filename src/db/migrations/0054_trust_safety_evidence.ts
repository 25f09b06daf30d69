/**
 * Safety evidence in trust (docs/methodology.md §Trust, version 2 of the trust methodology),
 * spanning the agents imports, trust and runtime areas:
 *
 * - `agent_a2a_cards.signer_host`: for a VERIFIED card, the host whose key verified it (the
 *   `jku`'s host, or for an embedded `jwk` the host of the URL the card was imported from, as
 *   `URL.host` gives it: lower case, a non-default port kept); null otherwise. The projector
 *   compares it with the hosts of the agent's proven did:web identities. Cards verified before
 *   this migration get it from `signer_jku` or their import's URL.
 * - The stored trust projections get the components version 2 adds, neutral (`ratings.valuePpm`
 *   = the stored value, no findings penalty, no signature adjustment), so they read as before;
 *   the agents whose value version 2 changes (open findings, a VERIFIED or INVALID card) are
 *   marked for the projector, which recomputes them within seconds.
 * - The built-in runtime tool `directory.search_agents` now answers by relevance: its stored
 *   description says so, its digest follows, and so do the approvals of its old digest (the
 *   directory reworded its own tool; no third party changed it, so no person needs to approve
 *   it again).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

/** The built-in search tool's definition digests (`toolDigest`) before and after this migration. */
export const SearchToolDigestBefore = "sha256:2db5620456046e53fb2897d383e0402c9a2a6746a80ab4e5d096b790e2b2326f"
export const SearchToolDigestAfter = "sha256:60008f3b83dbb4189095b7d90613869327ec8c59d5e5296301fac7f73c333b1b"
export const SearchToolDescription = "Search the agent directory: listed agents matching `q` (name, tagline, description, skills, " +
  "protocols, MCP tools; typos tolerated), most relevant first; without `q`, best ranked first."

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE agent_a2a_cards ADD COLUMN signer_host text;
UPDATE agent_a2a_cards c SET signer_host = lower(substring(COALESCE(c.signer_jku, i.url)
    FROM '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#]*)'))
  FROM agent_imports i
  WHERE i.id = c.import_id AND c.signature_state = 'VERIFIED';

UPDATE agent_reputation SET trust = trust || jsonb_build_object('components', (trust->'components') || jsonb_build_object(
    'ratings', (trust->'components'->'ratings') || jsonb_build_object('valuePpm', trust_ppm),
    'safety', jsonb_build_object('openFindings', 0, 'penaltyPpm', 0, 'maxPenaltyPpm', 400000, 'bySeverity', '[]'::jsonb,
      'findings', '[]'::jsonb),
    'signature', jsonb_build_object('signatureState', NULL, 'signerKid', NULL, 'signerHost', NULL, 'provenDomain', NULL,
      'adjustmentPpm', 0)))
  WHERE jsonb_typeof(trust->'components') = 'object' AND jsonb_typeof(trust->'components'->'ratings') = 'object';

INSERT INTO reputation_dirty_agents (agent_id, marked_at)
  SELECT agent_id, now() FROM agent_findings
  UNION SELECT agent_id, now() FROM agent_a2a_cards WHERE signature_state IN ('VERIFIED', 'INVALID')
ON CONFLICT (agent_id) DO NOTHING;
`)
  yield* sql`UPDATE runtime_tools SET description = ${SearchToolDescription}, definition_digest = ${SearchToolDigestAfter}
             WHERE source_kind = 'BUILTIN' AND stable_name = 'directory.search_agents' AND definition_digest = ${SearchToolDigestBefore}`
  yield* sql`UPDATE runtime_tool_approvals SET definition_digest = ${SearchToolDigestAfter}
             WHERE stable_name = 'directory.search_agents' AND definition_digest = ${SearchToolDigestBefore}`
})
