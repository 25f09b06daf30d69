/**
 * Tool-safety findings as Trust_ListAgentFindings answers them (docs/findings.md): what the
 * directory's heuristics found in an agent's MCP tool definitions and endpoints.
 */
import { Schema } from "effect"
import { DateTimeZ, QueryInt, rule, Uuid, WireString } from "../../../schema/common.js"

/** What a finding is about. */
export const FindingKind = Schema.Literal(
  "TOOL_DEFINITION_CHANGED",
  "HIDDEN_INSTRUCTIONS",
  "INVISIBLE_CHARACTERS",
  "TOOL_SHADOWING",
  "ENDPOINT_NOT_MCP"
).annotations({ identifier: "FindingKind", ...rule("must be one of the finding kinds") })

/** How serious a finding is. */
export const FindingSeverity = Schema.Literal("LOW", "MEDIUM", "HIGH", "CRITICAL").annotations({ identifier: "FindingSeverity" })

/**
 * One finding: `kind`, `ruleId` (the heuristic, docs/findings.md), `severity`, `subject` (the
 * tool's stable name, or the endpoint URL), `connectionId` (the agent's MCP connection it was
 * found in; null for an import's URL), `evidence` (`pointer`: JSON pointer into the tool
 * definition, `""` for the whole; `match`: what the rule matched, invisible characters as
 * `U+XXXX`, at most 120 characters), `beforeDigest`/`afterDigest` (TOOL_DEFINITION_CHANGED:
 * the approved and the current definition's `sha256:` digests; else null), `detectedAt`
 * (first found) and `seenAt` (last confirmed).
 */
export const AgentFinding = Schema.Struct({
  id: Uuid,
  agentId: Uuid,
  kind: FindingKind,
  ruleId: Schema.String,
  severity: FindingSeverity,
  subject: Schema.String,
  connectionId: Schema.NullOr(Uuid),
  evidence: Schema.Struct({ pointer: Schema.String, match: Schema.String }),
  beforeDigest: Schema.NullOr(Schema.String),
  afterDigest: Schema.NullOr(Schema.String),
  detectedAt: DateTimeZ,
  seenAt: DateTimeZ
}).annotations({ identifier: "AgentFinding" })
export type AgentFinding = typeof AgentFinding.Type

/** Query of Trust_ListAgentFindings: `limit` 1-100 (default 25), `cursor`, optional `kind`. */
export const ListAgentFindingsQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  cursor: Schema.optionalWith(WireString(1, 4096), { exact: true }),
  kind: Schema.optionalWith(FindingKind, { exact: true })
})
