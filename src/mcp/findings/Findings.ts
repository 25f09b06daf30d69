/**
 * Recording an agent's tool-safety findings (`agent_findings`, migration 0051; the heuristics
 * are `./Heuristics.ts`, docs/findings.md), in the transaction that records what they are
 * about, and marking the agent's trust evidence changed (the findings are trust components):
 *
 * - {@link recordCatalogFindings}: after a catalog fetch stored the connection's tools (and
 *   their versions, `../RuntimeTools.ts`), the connection's findings are recomputed: the
 *   heuristics on every tool listed (shadowing against the tools of the agent's other
 *   connections), and TOOL_DEFINITION_CHANGED (`changed.definition`) for each tool whose latest
 *   definition is not the approved one (`runtime_tool_approvals`, else its first stored version's):
 *   HIGH when the tool is granted, MEDIUM otherwise, with the before and after digests. Findings
 *   found again keep their id and `detectedAt`; those not found any more are deleted.
 * - {@link recordEndpointNotMcp}: an endpoint that did not answer as an MCP server
 *   (`endpoint.not-mcp`, MEDIUM), for a connection's failed fetch or a failed import of
 *   `MCP_SERVER`; a later successful fetch of the connection (or of a connection to the same
 *   URL) removes it.
 * - {@link resolveApprovedChanges}: once a person approved a tool's changed definition (a grant,
 *   or an approved call), its TOOL_DEFINITION_CHANGED finding for that definition is resolved
 *   (deleted), in the approval's transaction.
 *
 * Each marks the agent's trust evidence changed when it changed a finding (its open findings
 * lower its trust, docs/methodology.md).
 */
import { SqlClient } from "@effect/sql"
import { createHash } from "node:crypto"
import { Effect } from "effect"
import { canonicalJson } from "../../../layers/CanonicalJson.js"
import { Ids } from "../../../layers/Ids.js"
import { markAgentEvidence } from "../../trust/index.js"
import { type FindingKind, type FindingSeverity, toolFindings, toolName } from "./Heuristics.js"

/** A finding ready to store. */
interface NewFinding {
  readonly kind: FindingKind
  readonly ruleId: string
  readonly severity: FindingSeverity
  readonly subject: string
  readonly evidence: Record<string, unknown>
  readonly beforeDigest: string | null
  readonly afterDigest: string | null
}

/** The natural key of a finding: what it is about and where, not how it is worded. */
const fingerprint = (connectionId: string | null, f: NewFinding) =>
  createHash("sha256").update(canonicalJson({
    connectionId,
    kind: f.kind,
    ruleId: f.ruleId,
    subject: f.subject,
    pointer: f.evidence.pointer ?? null,
    before: f.beforeDigest,
    after: f.afterDigest
  })).digest("hex")

/** Upserts `findings` of agent `agentId` (connection `connectionId`), answering their fingerprints. */
const upsert = (agentId: string, connectionId: string | null, findings: ReadonlyArray<NewFinding>, at: Date) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const keys: Array<string> = []
    for (const f of findings) {
      const key = fingerprint(connectionId, f)
      if (keys.includes(key)) continue
      keys.push(key)
      yield* sql`INSERT INTO agent_findings (id, agent_id, connection_id, fingerprint, kind, rule_id, severity, subject, evidence,
                   before_digest, after_digest, detected_at, seen_at)
                 VALUES (${yield* ids.next}, ${agentId}, ${connectionId}, ${key}, ${f.kind}, ${f.ruleId}, ${f.severity}, ${f.subject},
                   ${JSON.stringify(f.evidence)}::jsonb, ${f.beforeDigest}, ${f.afterDigest}, ${at}, ${at})
                 ON CONFLICT (agent_id, fingerprint) DO UPDATE SET severity = EXCLUDED.severity, evidence = EXCLUDED.evidence,
                   seen_at = EXCLUDED.seen_at`
    }
    return keys
  })

/**
 * Recomputes connection `connectionId`'s findings from `tools` (the catalog's tools as listed)
 * and the stored tool versions (see the module's description). Runs in the caller's
 * transaction, after the tools were synced. Requires `SqlClient`, `Ids`.
 */
export const recordCatalogFindings = (input: {
  readonly agentId: string
  readonly connectionId: string
  readonly serverUrl: string
  readonly toolPrefix: string
  readonly tools: ReadonlyArray<unknown>
  readonly at: Date
}) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const others = yield* sql<{ name: string }>`
      SELECT DISTINCT remote_definition->>'name' AS name FROM runtime_tools
      WHERE agent_id = ${input.agentId} AND source_kind = 'MCP_SERVER' AND source_reference <> ${input.connectionId}
        AND available AND remote_definition->>'name' IS NOT NULL`
    const otherNames = others.map((o) => o.name)
    const findings: Array<NewFinding> = []
    const listed = new Set<string>()
    for (const tool of input.tools) {
      const name = toolName(tool)
      if (name === undefined || listed.has(name)) continue
      listed.add(name)
      for (const f of toolFindings(tool, otherNames)) {
        findings.push({
          kind: f.kind,
          ruleId: f.ruleId,
          severity: f.severity,
          subject: `${input.toolPrefix}.${name}`,
          evidence: f.evidence,
          beforeDigest: null,
          afterDigest: null
        })
      }
    }
    const changed = yield* sql<{ stableName: string; version: number; digest: string; baseline: string; granted: boolean }>`
      SELECT l.stable_name AS "stableName", l.version, l.definition_digest AS digest,
        COALESCE(a.definition_digest, f.definition_digest) AS baseline, l.grant_state IS NOT NULL AS granted
      FROM (SELECT DISTINCT ON (stable_name) stable_name, version, definition_digest, grant_state FROM runtime_tools
            WHERE agent_id = ${input.agentId} AND source_kind = 'MCP_SERVER' AND source_reference = ${input.connectionId} AND available
            ORDER BY stable_name, version DESC) l
      JOIN LATERAL (SELECT definition_digest FROM runtime_tools WHERE agent_id = ${input.agentId} AND stable_name = l.stable_name
                    ORDER BY version LIMIT 1) f ON true
      LEFT JOIN runtime_tool_approvals a ON a.agent_id = ${input.agentId} AND a.stable_name = l.stable_name
      WHERE l.definition_digest IS DISTINCT FROM COALESCE(a.definition_digest, f.definition_digest)
      ORDER BY l.stable_name`
    for (const c of changed) {
      findings.push({
        kind: "TOOL_DEFINITION_CHANGED",
        ruleId: "changed.definition",
        severity: c.granted ? "HIGH" : "MEDIUM",
        subject: c.stableName,
        evidence: { pointer: "", match: `version ${c.version} differs from the approved definition`, version: c.version, granted: c.granted },
        beforeDigest: c.baseline,
        afterDigest: c.digest
      })
    }
    const keys = yield* upsert(input.agentId, input.connectionId, findings, input.at)
    yield* sql`DELETE FROM agent_findings WHERE agent_id = ${input.agentId}
                 AND (connection_id = ${input.connectionId}
                      OR (connection_id IS NULL AND kind = 'ENDPOINT_NOT_MCP' AND subject = ${input.serverUrl}))
                 ${keys.length === 0 ? sql`` : sql`AND fingerprint NOT IN ${sql.in(keys)}`}`
    yield* markAgentEvidence(input.agentId, input.at)
  })

/**
 * Records that `url` did not answer as an MCP server (`code`: the fetch's failure code), for
 * connection `connectionId` (null: an import). Runs in the caller's transaction. Requires
 * `SqlClient`, `Ids`.
 */
export const recordEndpointNotMcp = (input: {
  readonly agentId: string
  readonly connectionId: string | null
  readonly url: string
  readonly code: string
  readonly at: Date
}) =>
  Effect.gen(function*() {
    yield* upsert(input.agentId, input.connectionId, [{
      kind: "ENDPOINT_NOT_MCP",
      ruleId: "endpoint.not-mcp",
      severity: "MEDIUM",
      subject: input.url,
      evidence: { pointer: "", match: `the endpoint answered ${input.code} to MCP initialize`, code: input.code },
      beforeDigest: null,
      afterDigest: null
    }], input.at)
    yield* markAgentEvidence(input.agentId, input.at)
  })

/**
 * Resolves agent `agentId`'s TOOL_DEFINITION_CHANGED findings whose `afterDigest` is now the
 * approved definition of their tool (`runtime_tool_approvals`): deleted, and the agent's trust
 * evidence marked changed when any was. Runs in the approval's transaction. Requires `SqlClient`.
 */
export const resolveApprovedChanges = (agentId: string, at: Date) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const resolved = yield* sql<{ id: string }>`DELETE FROM agent_findings f USING runtime_tool_approvals a
      WHERE f.agent_id = ${agentId} AND f.kind = 'TOOL_DEFINITION_CHANGED'
        AND a.agent_id = f.agent_id AND a.stable_name = f.subject AND a.definition_digest = f.after_digest
      RETURNING f.id`
    if (resolved.length > 0) yield* markAgentEvidence(agentId, at)
  })
