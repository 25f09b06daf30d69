/**
 * What imports show on the agent profile (Agents_GetAgent): the SQL columns the agents
 * area's profile query selects for agent `a`, in the wire shape of
 * `AgentProfileImportedFields` (schema/agentImports.ts): the A2A card's `provider` and signature state,
 * `skills` and `interfaces`, the ERC-8004 `endpoints` and `identityClaims` (UNPROVEN until
 * proven), and `sources`, the latest SUCCEEDED import of each kind.
 */
import type { SqlClient } from "@effect/sql"

/** The profile's imported columns of agent `a` (JSON; empty arrays or null when never imported). */
export const importedProfileColumns = (sql: SqlClient.SqlClient) =>
  sql`(SELECT json_build_object('organization', c.provider_organization, 'url', c.provider_url)
         FROM agent_a2a_cards c WHERE c.agent_id = a.id AND c.provider_organization IS NOT NULL) AS provider,
      (SELECT c.signature_state FROM agent_a2a_cards c WHERE c.agent_id = a.id) AS "signatureState",
      (SELECT c.signer_kid FROM agent_a2a_cards c WHERE c.agent_id = a.id) AS "signatureKid",
      COALESCE((SELECT json_agg(json_build_object('id', s.skill_id, 'name', s.name, 'description', s.description,
                  'tags', s.tags, 'examples', s.examples, 'inputModes', s.input_modes, 'outputModes', s.output_modes)
                  ORDER BY s.position)
         FROM agent_skills s WHERE s.agent_id = a.id), '[]'::json) AS skills,
      COALESCE((SELECT json_agg(json_build_object('url', i.url, 'protocolBinding', i.protocol_binding,
                  'protocolVersion', i.protocol_version) ORDER BY i.position)
         FROM agent_interfaces i WHERE i.agent_id = a.id), '[]'::json) AS interfaces,
      COALESCE((SELECT json_agg(json_build_object('name', e.name, 'endpoint', e.endpoint, 'version', e.version)
                  ORDER BY e.position)
         FROM agent_registration_endpoints e WHERE e.agent_id = a.id), '[]'::json) AS endpoints,
      COALESCE((SELECT json_agg(json_build_object('publicId', k.id, 'networkFamily', k.family, 'locatorKind', k.kind,
                  'network', k.network_caip2, 'registry', k.registry, 'nativeId', k.native_id, 'proofState', k.proof_state)
                  ORDER BY k.network_caip2 COLLATE "C", k.registry COLLATE "C", length(k.native_id), k.native_id, k.id)
         FROM agent_identity_claims k WHERE k.agent_id = a.id), '[]'::json) AS "identityClaims",
      COALESCE((SELECT json_agg(json_build_object('kind', x.kind, 'url', x.url, 'importId', x.id,
                  'importedAt', api_ts(x.finished_at)) ORDER BY x.kind)
         FROM (SELECT DISTINCT ON (m.kind) m.kind, m.url, m.id, m.finished_at FROM agent_imports m
                WHERE m.agent_id = a.id AND m.state = 'SUCCEEDED' ORDER BY m.kind, m.finished_at DESC, m.id DESC) x),
        '[]'::json) AS sources`
