/**
 * SQL of agent imports (migration 0020): the import records and what a SUCCEEDED import
 * stores on the agent (its A2A card with skills and interfaces; its ERC-8004 endpoints and
 * identity claims), each replacing what the agent's previous import of that kind stored.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { markAgentEvidence } from "../../trust/index.js"
import {
  AgentImport,
  type AgentImportKind,
  type AgentImportReason,
  type AgentImportResult
} from "../../../schema/agentImports.js"

const ImportRow = Schema.Struct({
  ...AgentImport.fields,
  reasons: Schema.parseJson(AgentImport.fields.reasons),
  result: Schema.NullOr(Schema.parseJson(Schema.NullOr(AgentImport.fields.result)))
})

/** What the run of an import needs: the agent, what to read and where. */
export const ImportTarget = Schema.Struct({ agentId: Schema.String, kind: AgentImport.fields.kind, url: Schema.String })
export type ImportTarget = typeof ImportTarget.Type

/** The stored parts of an A2A Agent Card. */
export interface StoredCard {
  readonly agentId: string
  readonly importId: string
  readonly cardText: string
  readonly card: unknown
  readonly provider: { readonly organization: string; readonly url: string } | null
  /** The verification of the card's signatures (CardSignatures.ts). */
  readonly signature: { readonly state: "VERIFIED" | "INVALID" | "UNSIGNED"; readonly kid: string | null; readonly jku: string | null }
  /** The host whose key verified the card (`cardSignerHost`); null unless VERIFIED. */
  readonly signerHost: string | null
  readonly skills: ReadonlyArray<{
    readonly id: string
    readonly name: string
    readonly description: string
    readonly tags: ReadonlyArray<string>
    readonly examples: ReadonlyArray<string>
    readonly inputModes: ReadonlyArray<string>
    readonly outputModes: ReadonlyArray<string>
  }>
  readonly interfaces: ReadonlyArray<{ readonly url: string; readonly protocolBinding: string; readonly protocolVersion: string | null }>
  readonly at: Date
}

/** The stored parts of an ERC-8004 registration file. */
export interface StoredRegistration {
  readonly agentId: string
  readonly importId: string
  readonly endpoints: ReadonlyArray<{ readonly name: string; readonly endpoint: string; readonly version: string | null }>
  /** Identity claims with their new ids (a claim the agent already has keeps its id and proof state). */
  readonly claims: ReadonlyArray<{ readonly id: string; readonly network: string; readonly registry: string; readonly nativeId: string }>
  readonly at: Date
}

export class AgentImportsRepo extends Effect.Service<AgentImportsRepo>()("agent-directory/AgentImportsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const findImport = SqlSchema.findOne({
      Request: Schema.String,
      Result: ImportRow,
      execute: (id) =>
        sql`SELECT i.id, i.agent_id AS "entityPublicId", i.kind, i.url, i.state, i.reasons::text AS reasons,
              i.result::text AS result, api_ts(i.created_at) AS "createdAt", api_ts(i.updated_at) AS "updatedAt",
              api_ts(i.started_at) AS "startedAt", api_ts(i.finished_at) AS "finishedAt"
            FROM agent_imports i WHERE i.id = ${id}`
    })

    const start = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.String, at: Schema.DateFromSelf }),
      Result: ImportTarget,
      execute: ({ at, id }) =>
        sql`UPDATE agent_imports SET state = 'RUNNING', started_at = COALESCE(started_at, ${at}), updated_at = ${at}
            WHERE id = ${id} AND state IN ('QUEUED', 'RUNNING')
            RETURNING agent_id AS "agentId", kind, url`
    })

    return {
      /** Records a QUEUED import. */
      insertImport: (i: {
        readonly id: string
        readonly agentId: string
        readonly kind: AgentImportKind
        readonly url: string
        readonly accountId: string
        readonly at: Date
      }) =>
        sql`INSERT INTO agent_imports (id, agent_id, kind, url, state, requested_by, created_at, updated_at)
            VALUES (${i.id}, ${i.agentId}, ${i.kind}, ${i.url}, 'QUEUED', ${i.accountId}, ${i.at}, ${i.at})`,
      /** An import in its wire shape, or none. */
      findImport: (id: string) => findImport(id),
      /** QUEUED (or RUNNING, when run again after a crash) → RUNNING; its target, or none in any other state. */
      start: (id: string, at: Date) => start({ id, at }),
      /** RUNNING → FAILED with `reasons`. */
      fail: (id: string, reasons: ReadonlyArray<AgentImportReason>, at: Date) =>
        sql`UPDATE agent_imports SET state = 'FAILED', reasons = ${JSON.stringify(reasons)}::jsonb, updated_at = ${at},
              finished_at = ${at} WHERE id = ${id} AND state = 'RUNNING'`,
      /** RUNNING → SUCCEEDED with `result`. */
      succeed: (id: string, result: AgentImportResult, at: Date) =>
        sql`UPDATE agent_imports SET state = 'SUCCEEDED', result = ${JSON.stringify(result)}::jsonb, updated_at = ${at},
              finished_at = ${at} WHERE id = ${id} AND state = 'RUNNING'`,
      /** Replaces the agent's A2A card, provider, skills and interfaces, and marks its trust evidence changed. */
      storeCard: (c: StoredCard) =>
        Effect.gen(function*() {
          // the card's signature is trust evidence (docs/methodology.md); marked first, as every writer
          // of evidence does, so the transaction takes the projector's queue row before the card's rows
          yield* markAgentEvidence(c.agentId, c.at)
          yield* sql`DELETE FROM agent_skills WHERE agent_id = ${c.agentId}`
          yield* sql`DELETE FROM agent_interfaces WHERE agent_id = ${c.agentId}`
          yield* sql`INSERT INTO agent_a2a_cards (agent_id, import_id, card_text, card, provider_organization, provider_url, fetched_at,
                signature_state, signer_kid, signer_jku, signer_host)
              VALUES (${c.agentId}, ${c.importId}, ${c.cardText}, ${JSON.stringify(c.card)}::jsonb,
                      ${c.provider?.organization ?? null}, ${c.provider?.url ?? null}, ${c.at},
                      ${c.signature.state}, ${c.signature.kid}, ${c.signature.jku}, ${c.signerHost})
              ON CONFLICT (agent_id) DO UPDATE SET import_id = EXCLUDED.import_id, card_text = EXCLUDED.card_text,
                card = EXCLUDED.card, provider_organization = EXCLUDED.provider_organization,
                provider_url = EXCLUDED.provider_url, fetched_at = EXCLUDED.fetched_at,
                signature_state = EXCLUDED.signature_state, signer_kid = EXCLUDED.signer_kid, signer_jku = EXCLUDED.signer_jku,
                signer_host = EXCLUDED.signer_host`
          if (c.skills.length > 0) {
            yield* sql`INSERT INTO agent_skills ${
              sql.insert(c.skills.map((s, position) => ({
                agent_id: c.agentId,
                position,
                import_id: c.importId,
                skill_id: s.id,
                name: s.name,
                description: s.description,
                tags: JSON.stringify(s.tags),
                examples: JSON.stringify(s.examples),
                input_modes: JSON.stringify(s.inputModes),
                output_modes: JSON.stringify(s.outputModes)
              })))
            }`
          }
          if (c.interfaces.length > 0) {
            yield* sql`INSERT INTO agent_interfaces ${
              sql.insert(c.interfaces.map((i, position) => ({
                agent_id: c.agentId,
                position,
                import_id: c.importId,
                url: i.url,
                protocol_binding: i.protocolBinding,
                protocol_version: i.protocolVersion
              })))
            }`
          }
        }),
      /**
       * Replaces the agent's registration endpoints and its UNPROVEN claims with the file's;
       * a claim the agent already has (proven or not) is kept as it is.
       */
      storeRegistration: (r: StoredRegistration) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM agent_registration_endpoints WHERE agent_id = ${r.agentId}`
          if (r.endpoints.length > 0) {
            yield* sql`INSERT INTO agent_registration_endpoints ${
              sql.insert(r.endpoints.map((e, position) => ({
                agent_id: r.agentId,
                position,
                import_id: r.importId,
                name: e.name,
                endpoint: e.endpoint,
                version: e.version
              })))
            }`
          }
          const keep = r.claims.map((c) => `${c.network}|${c.registry}|${c.nativeId}`)
          yield* sql`DELETE FROM agent_identity_claims WHERE agent_id = ${r.agentId} AND proof_state = 'UNPROVEN'
              ${keep.length === 0 ? sql`` : sql`AND network_caip2 || '|' || registry || '|' || native_id NOT IN ${sql.in(keep)}`}`
          for (const c of r.claims) {
            yield* sql`INSERT INTO agent_identity_claims
                (id, agent_id, import_id, family, kind, network_caip2, registry, native_id, proof_state, created_at)
                VALUES (${c.id}, ${r.agentId}, ${r.importId}, 'EVM', 'REGISTRY_TOKEN', ${c.network}, ${c.registry},
                        ${c.nativeId}, 'UNPROVEN', ${r.at})
                ON CONFLICT (agent_id, network_caip2, registry, native_id) DO NOTHING`
          }
        })
    }
  })
}) {}
