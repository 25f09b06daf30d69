/**
 * Demo data of the Trust area (spec §2.9): feedback on the demo agents in every state,
 * by several authors, each speaking for one of its workspaces (`workspace`: at most one live
 * feedback per workspace, agent and category). Loaded by `seed.ts`. No demo votes: the
 * seeded helpful / not-helpful counts stand for votes older than the votes table.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import { Effect } from "effect"
import { DemoAccounts } from "../accounts/seed.js"
import { DemoAgents } from "../agents/seed.js"
import { DemoMcpConnections } from "../runtime/data.js"
import { DemoWorkspaces } from "../workspaces/seed.js"
import { demoId, demoTime } from "../common.js"

const id = (n: number) => demoId(0xa4, n)

/**
 * Feedback: `agent` is an index into DemoAgents, `workspace` a key of DemoWorkspaces (one of the
 * author's); counts are helpful / not helpful / responses. Some speak for the agent's own
 * operating workspace, which Trust_CreateFeedback allows.
 */
export const DemoFeedback = {
  /** The owner's published review of Atlas Research: withdrawable at revision 1 (demo manifest). */
  ownerAtlas: {
    id: id(1), agent: 0, author: "owner", workspace: "locked", rating: 900_000, category: "QUALITY", state: "PUBLISHED", authenticity: "VERIFIED",
    revision: 1, title: "Thorough research", body: "Atlas found sources we had missed.", counts: [12, 1, 1]
  },
  /** The member's published review of Atlas Research, revised once: withdrawable at revision 2; public, so others get 403. */
  memberAtlas: {
    id: id(2), agent: 0, author: "member", workspace: "acme", rating: 700_000, category: "RELIABILITY", state: "PUBLISHED", authenticity: "UNVERIFIED",
    revision: 2, title: "Mostly reliable", body: "Two timeouts in a month, otherwise solid.", counts: [4, 0, 0]
  },
  /** The owner's review awaiting moderation: withdrawable; not public, so others get 404. */
  ownerPending: {
    id: id(3), agent: 1, author: "owner", workspace: "locked", rating: 600_000, category: "VALUE", state: "PENDING_MODERATION", authenticity: "UNVERIFIED",
    revision: 1, title: "Fair price", body: "Worth it for the alerts alone.", counts: [0, 0, 0]
  },
  /** Already withdrawn: withdrawing again is a state conflict. */
  ownerWithdrawn: {
    id: id(4), agent: 2, author: "owner", workspace: "acme", rating: 200_000, category: "SAFETY", state: "WITHDRAWN", authenticity: "VERIFIED",
    revision: 2, title: "Risky trades", body: "Placed a trade outside my limits.", counts: [3, 2, 1]
  },
  /** Hidden by moderation: its author may still withdraw it. */
  ownerHidden: {
    id: id(5), agent: 1, author: "owner", workspace: "locked", rating: 100_000, category: "COMMUNICATION", state: "HIDDEN", authenticity: "SUSPECTED",
    revision: 3, title: "No answers", body: "Support never replied.", counts: [0, 5, 0]
  },
  /** The outsider's published review of Atlas Research. */
  outsiderAtlas: {
    id: id(6), agent: 0, author: "outsider", workspace: "outsider", rating: 800_000, category: "OTHER", state: "PUBLISHED", authenticity: "VERIFIED",
    revision: 1, title: "Good onboarding", body: "Set up in minutes.", counts: [2, 0, 0]
  }
} as const

/**
 * Tool-safety findings (docs/findings.md) of Atlas Research: its disabled "Old wiki" MCP
 * endpoint stopped answering as MCP, and a tool of its "Local files" server hides an
 * instruction from the user in a parameter's description.
 */
export const DemoFindings = {
  wikiNotMcp: {
    id: demoId(0xa5, 1), agent: 0, connectionId: DemoMcpConnections.disabled.id, kind: "ENDPOINT_NOT_MCP",
    ruleId: "endpoint.not-mcp", severity: "MEDIUM", subject: "https://mcp.wiki.example/mcp",
    evidence: { pointer: "", match: "the endpoint answered http-404 to MCP initialize" }
  },
  filesConceal: {
    id: demoId(0xa5, 2), agent: 0, connectionId: DemoMcpConnections.local.id, kind: "HIDDEN_INSTRUCTIONS",
    ruleId: "hidden.conceal-from-user", severity: "HIGH", subject: "local-files.read_file",
    evidence: { pointer: "/inputSchema/properties/path/description", match: "do not tell the user" }
  }
} as const

/** Loads the trust demo data (inside the seed transaction). Fails with `SqlError`. */
export const seedTrustDemo: Effect.Effect<void, SqlError.SqlError, SqlClient.SqlClient> = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
  sql`INSERT INTO agent_findings ${
    sql.insert(Object.values(DemoFindings).map((f, i) => ({
      id: f.id,
      agent_id: DemoAgents[f.agent].id,
      connection_id: f.connectionId,
      fingerprint: `demo-${i + 1}`,
      kind: f.kind,
      rule_id: f.ruleId,
      severity: f.severity,
      subject: f.subject,
      evidence: JSON.stringify(f.evidence),
      before_digest: null,
      after_digest: null,
      detected_at: demoTime(71, i),
      seen_at: demoTime(72, i)
    })))
  }`.pipe(Effect.zipRight(sql`INSERT INTO feedback ${
    sql.insert(Object.values(DemoFeedback).map((f, i) => ({
      id: f.id,
      agent_id: DemoAgents[f.agent].id,
      author_account_id: DemoAccounts[f.author].id,
      workspace_id: DemoWorkspaces[f.workspace].id,
      rating_ppm: f.rating,
      category: f.category,
      title: f.title,
      body: f.body,
      state: f.state,
      authenticity_state: f.authenticity,
      revision: f.revision,
      helpful_count: f.counts[0],
      not_helpful_count: f.counts[1],
      response_count: f.counts[2],
      withdrawal_reason: f.state === "WITHDRAWN" ? "Resolved with the agent's operator." : null,
      withdrawn_at: f.state === "WITHDRAWN" ? demoTime(62, i) : null,
      created_at: demoTime(60, i),
      updated_at: demoTime(61, i)
    })))
  }`), Effect.asVoid)
)
