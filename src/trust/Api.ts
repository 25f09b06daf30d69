/**
 * Trust area contract (spec §4.3): agent feedback, written, voted on and withdrawn; and an
 * agent's tool-safety findings (ours in the spec's conventions, docs/findings.md).
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import * as HttpApiGroup from "@effect/platform/HttpApiGroup"
import * as OpenApi from "@effect/platform/OpenApi"
import { Schema } from "effect"
import { Uuid } from "../../schema/common.js"
import { AgentPath } from "../../schema/agents.js"
import { Data, Page } from "../../schema/envelope.js"
import { IdempotencyKeyRequired } from "../../schema/idempotency.js"
import { CreatedFeedback, CreateFeedbackRequest, Feedback, VoteFeedbackRequest, WithdrawFeedbackRequest } from "./Schemas.js"
import { operation } from "../api/operation.js"
import { AgentNotFound, Conflict, InvalidCursor, InvalidState, VersionConflict, WorkspaceNotFound } from "../../schema/errors.js"
import { AuthorRequired, FeedbackExists, FeedbackNotFound, OwnFeedbackVote } from "./Errors.js"
import { AgentFinding, ListAgentFindingsQuery } from "./findings/Schemas.js"

export class TrustApi extends HttpApiGroup.make("Trust")
  .add(
    HttpApiEndpoint.post("createFeedback", "/api/v1/agents/:entityPublicId/feedback")
      .setPath(Schema.Struct({ entityPublicId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(CreateFeedbackRequest)
      .addSuccess(Data(CreatedFeedback), { status: 201 })
      .addSuccess(Data(Feedback))
      .pipe(
        operation({
          id: "Trust_CreateFeedback",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 500, 503],
          summary: "Give an agent feedback for one of your workspaces, or edit that feedback by revision",
          description: "Feedback speaks for a workspace: `workspaceId` names one the caller is an ACTIVE member of. " +
            "Body: `category` (QUALITY, RELIABILITY, SAFETY, VALUE, COMMUNICATION, OTHER), `ratingPpm` (integer " +
            "0-1000000), `title` (1-200 characters, not only white space), `body` (0-10000), optional `expectedRevision`.\n\n" +
            "- A workspace has at most one live (not WITHDRAWN) feedback per agent and category.\n" +
            "- **Create** (no `expectedRevision`, none live): 201 with the feedback, `state` PUBLISHED at once (there is " +
            "no moderation step), `revision` 1. A live one already there: 409 `feedback-exists` (send its revision as " +
            "`expectedRevision` to edit it); concurrent creates end in one feedback and 409s.\n" +
            "- **Edit** (`expectedRevision` = the live feedback's `revision`): its rating, title and body are replaced, " +
            "`revision` + 1, its state kept; 200. Any ACTIVE member of the workspace may edit the workspace's feedback " +
            "(the author stays who created it). A stale revision: 409 `version-conflict`; none live: 404 `feedback-not-found`.\n" +
            "- `authenticityState` (evaluated on create and on every edit): VERIFIED_INTERACTION when the workspace " +
            "has an order for the agent that was paid (PAID, FULFILLMENT_PENDING, ACTIVE, COMPLETED or EXPIRED), a bounty " +
            "it posted whose delivery by the agent it accepted (docs/bounties.md), or a run " +
            "of the agent in a conversation one of its ACTIVE members started (playground runs excluded); else UNVERIFIED.\n" +
            "- The agent must be listed and ACTIVE: unknown or never listed 404 `agent-not-found`, RETIRED 409 " +
            "`invalid-state`. The workspace that operates the agent may rate it too (a run of the agent is an " +
            "interaction); its runs make that feedback VERIFIED_INTERACTION like anyone's.\n\n" +
            "Checks in order: 404 `workspace-not-found`, 404 `agent-not-found`, 409 `invalid-state`, " +
            "then 409 `feedback-exists` / 404 `feedback-not-found` / 409 `version-conflict`. " +
            "Needs a session with its CSRF token and an `Idempotency-Key`. The write is evidence for the agent's trust, " +
            "rank and performance projections (marked in the same transaction).",
          errors: [WorkspaceNotFound, AgentNotFound, InvalidState, FeedbackExists, FeedbackNotFound,
            VersionConflict, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("voteFeedback", "/api/v1/feedback/:feedbackId/votes")
      .setPath(Schema.Struct({ feedbackId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(VoteFeedbackRequest)
      .addSuccess(Data(Feedback))
      .pipe(
        operation({
          id: "Trust_VoteFeedback",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "Vote a feedback helpful or not helpful (one vote per account, changeable)",
          description: "Body: `vote` HELPFUL or NOT_HELPFUL. Each account has at most one vote per feedback: a second " +
            "vote replaces the first (the same vote again changes nothing). The feedback's `helpfulCount` and " +
            "`notHelpfulCount` move in the same transaction; the answer is 200 with the feedback (its `revision` does " +
            "not change: votes are not an edit).\n\n" +
            "- Only PUBLISHED feedback can be voted on: any other, or an unknown id, is 404 `feedback-not-found`.\n" +
            "- Its author cannot vote on it: 403 `own-feedback-vote`.\n\n" +
            "Needs a session with its CSRF token and an `Idempotency-Key`. The vote is evidence for the agent's trust " +
            "projection (marked in the same transaction).",
          errors: [FeedbackNotFound, OwnFeedbackVote]
        })
      )
  )
  .add(
    HttpApiEndpoint.post("withdrawFeedback", "/api/v1/feedback/:feedbackId/withdraw")
      .setPath(Schema.Struct({ feedbackId: Uuid }))
      .setHeaders(IdempotencyKeyRequired)
      .setPayload(WithdrawFeedbackRequest)
      .addSuccess(Data(Feedback))
      .pipe(
        operation({
          id: "Trust_WithdrawFeedback",
          auth: "required-user",
          cache: "none",
          statuses: [400, 401, 403, 404, 409, 410, 422, 500, 503],
          summary: "Withdraw your feedback at the revision you saw; it stops counting in the agent's trust figures",
          description: "The author withdraws their feedback: PENDING_MODERATION, PUBLISHED or HIDDEN → WITHDRAWN, with " +
            "`revision` + 1 and `updatedAt` = now; `reason` is kept with the feedback. Withdrawn feedback no longer counts " +
            "in the agent's trust figures (only PUBLISHED feedback counts).\n\n" +
            "- `expectedRevision` is the revision the caller read; any other → 409 `version-conflict` (concurrent " +
            "withdrawals at one revision succeed once).\n" +
            "- Feedback already WITHDRAWN → 409 `invalid-state` (withdrawing twice).\n" +
            "- Someone else's feedback: 403 `author-required` when it is PUBLISHED (public, so its existence is no " +
            "secret); otherwise 404 `feedback-not-found`, like an unknown id.\n\n" +
            "Checks in order: 403, 404, 409 `version-conflict`, 409 `invalid-state`. 410 and 422 are listed by the spec " +
            "but never produced (a withdrawal needs no challenge or proof beyond the author's session). The withdrawal is " +
            "evidence for the agent's trust projection (marked in the same transaction).",
          errors: [AuthorRequired, FeedbackNotFound, VersionConflict, InvalidState, Conflict]
        })
      )
  )
  .add(
    HttpApiEndpoint.get("listAgentFindings", "/api/v1/agents/:entityPublicId/findings")
      .setPath(AgentPath)
      .setUrlParams(ListAgentFindingsQuery)
      .addSuccess(Page(AgentFinding, 100))
      .pipe(
        operation({
          id: "Trust_ListAgentFindings",
          auth: "public",
          cache: "none",
          scopes: ["agents:read"],
          statuses: [400, 401, 403, 404, 500, 503],
          summary: "An agent's tool-safety findings: changed tool definitions, hidden instructions, invisible characters, shadowing, endpoints that are not MCP",
          description: "What the directory's documented heuristics (docs/findings.md in the repository) found in the " +
            "agent's MCP tool definitions and endpoints, recomputed each time a catalog is fetched:\n\n" +
            "- TOOL_DEFINITION_CHANGED (`changed.definition`): a tool's definition digest differs from the approved one " +
            "(granted, or approved in a run; else its first seen), with `beforeDigest` and `afterDigest`; HIGH when " +
            "the tool is granted. A run calling it waits for a person's approval.\n" +
            "- HIDDEN_INSTRUCTIONS: descriptions or schemas carrying instructions aimed at the model (`hidden.*`: " +
            "override, concealment from the user, instruction tags, sensitive files, exfiltration URLs, cross-tool " +
            "directives).\n" +
            "- INVISIBLE_CHARACTERS: tag characters, bidirectional controls, zero-width characters (`invisible.*`).\n" +
            "- TOOL_SHADOWING: a tool named like, or naming, a tool of the agent's other MCP servers (`shadow.*`).\n" +
            "- ENDPOINT_NOT_MCP (`endpoint.not-mcp`): an MCP endpoint that did not answer as an MCP server.\n\n" +
            "Each with `severity` (LOW, MEDIUM, HIGH, CRITICAL), `evidence` (`pointer` into the definition, `match`) " +
            "and `ruleId`. `kind` filters. Cursor pages in the order the findings were first detected: `limit` 1-100 " +
            "(default 25); `nextCursor` (null on the last page) is signed and bound to this operation, agent and " +
            "`kind`: used elsewhere it is a 400 `invalid-cursor`. An unknown agent is a 404 `agent-not-found`. Public: " +
            "anonymous callers and API keys with `agents:read`. Findings are components of the agent's trust " +
            "(docs/methodology.md).",
          errors: [AgentNotFound, InvalidCursor]
        })
      )
  )
  .annotate(OpenApi.Description, "Trust: agent feedback and tool-safety findings")
{}
