/**
 * The runtime's work tools (src/runtime/tools/WorkTools.ts, docs/bounties.md "Agents take work"),
 * driven through the run loop by the deterministic runtime's `/tool` directive: Atlas (operated by
 * acme) claims an OPEN bounty of the outsider's workspace with `jobs.claim_bounty` and delivers with
 * `jobs.submit_delivery`; each call waits for a person's approval although the grant is GRANTED, and
 * runs as the approving account; a denied call changes nothing; a refusal of the bounty service is
 * the tool's error with the REST problem; arguments that break the schema fail before any approval.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { DemoAccounts } from "../../demo/accounts/seed.js"
import { DemoAssets, DemoNetworks } from "../../demo/common.js"
import { DemoEscrow } from "../../demo/jobs/bounties/seed.js"
import { DemoRuntimeAgents } from "../../demo/runtime/data.js"
import { DemoWorkspaces } from "../../demo/workspaces/seed.js"
import { IdsSequence } from "../../layers/Ids.js"
import { ensureBuiltinTools } from "../../src/runtime/tools/BuiltinTools.js"
import { call, type Session, signIn } from "../support/http.js"
import { makeTestServer, TestEpoch } from "../support/TestServer.js"
import { awaitState, send, toolCalls } from "./runLoopSupport.js"
import { awaitRun, insertConversation } from "./support.js"

const agent = DemoRuntimeAgents.configured
const server = makeTestServer()
const bountyId = (n: number) => `0000b0a8-0000-7000-8000-${n.toString(16).padStart(12, "0")}`
const AcmePayout = "0x7777777777777777777777777777777777777777"

/** The work tools granted GRANTED (HIGH risk: approval anyway); OPEN bounties of the outsider's; acme's payout wallet on Base. */
const setup = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* ensureBuiltinTools(agent, TestEpoch)
  yield* sql`UPDATE agent_runtime_configs
    SET tool_grants = ${JSON.stringify({ "jobs.claim_bounty": "GRANTED", "jobs.submit_delivery": "GRANTED" })}::jsonb
    WHERE agent_id = ${agent}`
  yield* sql`INSERT INTO wallets (id, owner_account_id, network_id, address, created_at, workspace_id)
    VALUES ('0000b0a8-0000-7000-8000-0000000000ff', ${DemoAccounts.owner.id}, ${DemoNetworks.base.id}, ${AcmePayout},
            ${TestEpoch}, ${DemoWorkspaces.acme.id})`
  yield* sql`INSERT INTO bounties ${
    sql.insert([1, 2, 3].map((n) => ({
      id: bountyId(n),
      workspace_id: DemoWorkspaces.outsider.id,
      title: `Work tool bounty ${n}`,
      description: "Summarise ten papers.",
      state: "OPEN",
      asset_id: DemoAssets.usdc.id,
      escrow_units: "5000000",
      escrow_network: DemoEscrow.network,
      escrow_contract_address: DemoEscrow.contractAddress,
      escrow_wallet_id: DemoEscrow.walletId,
      required_skills: "{research}",
      required_protocols: "{}",
      deadline_at: new Date("2026-07-01T00:00:00.000Z"),
      version: 2,
      created_at: TestEpoch,
      updated_at: TestEpoch
    })))
  }`
}).pipe(Effect.provide(IdsSequence("000000ac")), Effect.orDie)

const bountyRow = (id: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ state: string; version: number; claimantWorkspaceId: string | null; claimantAgentId: string | null; delivery: any }>`
      SELECT state, version::int AS version, claimant_workspace_id AS "claimantWorkspaceId",
             claimant_agent_id AS "claimantAgentId", delivery FROM bounties WHERE id = ${id}`).pipe(Effect.map((rows) => rows[0]!), Effect.orDie)

/** Sends `/tool <name> <args>` as `session` and waits until the run asks for approval; the run and its call. */
const ask = (session: Session, conversation: string, tool: string, args: Record<string, unknown>) =>
  Effect.gen(function*() {
    const runId = yield* send(session, conversation, `/tool ${tool} ${JSON.stringify(args)}`)
    const run = yield* awaitState(runId, "APPROVAL_REQUIRED")
    const [toolCall] = yield* toolCalls(runId)
    expect(toolCall).toMatchObject({ state: "APPROVAL_REQUIRED", approvalState: "PENDING" })
    return { runId, version: run.version, toolCallId: toolCall!.id }
  })

/** Runtime_DecideToolApproval as `session`; waits for the run to end; the call as stored. */
const decide = (session: Session, run: { runId: string; version: number; toolCallId: string }, decision: "APPROVE" | "DENY") =>
  Effect.gen(function*() {
    const reply = yield* call("POST", `/api/v1/runs/${run.runId}/approvals`, {
      session, body: { toolCallId: run.toolCallId, decision, expectedVersion: run.version }
    })
    expect(reply.status, reply.text).toBe(200)
    yield* awaitRun(run.runId)
    const [stored] = yield* toolCalls(run.runId)
    return stored!
  })

layer(server.layer, { excludeTestServices: true, timeout: 180_000 })("runtime work tools", (it) => {
  it.effect("claim and deliver through the run loop, each call approved by a person, acting as that person", () =>
    Effect.gen(function*() {
      yield* setup
      const owner = yield* signIn("owner")
      const conversation = yield* insertConversation(agent, "owner", "CHAT")

      // granted, yet HIGH risk: the claim waits for the owner; nothing changed meanwhile
      const claim = yield* ask(owner, conversation, "jobs__claim_bounty", { bountyId: bountyId(1), expectedVersion: 2 })
      expect((yield* bountyRow(bountyId(1))).state).toBe("OPEN")
      const claimed = yield* decide(owner, claim, "APPROVE")
      expect(claimed).toMatchObject({ stableName: "jobs.claim_bounty", state: "SUCCEEDED", isError: false, approvalState: "APPROVED" })
      expect(claimed.result.bounty).toMatchObject({
        id: bountyId(1), state: "CLAIMED", version: 3,
        claim: { workspaceId: DemoWorkspaces.acme.id, agentId: agent, payoutAddress: AcmePayout }
      })
      expect(yield* bountyRow(bountyId(1))).toMatchObject({ state: "CLAIMED", claimantWorkspaceId: DemoWorkspaces.acme.id, claimantAgentId: agent })

      const artifact = { name: "summaries.md", sha256: "c".repeat(64), mediaType: "text/markdown" }
      const submit = yield* ask(owner, conversation, "jobs__submit_delivery", {
        bountyId: bountyId(1), expectedVersion: 3, message: "Ten summaries, one per paper.",
        links: ["https://example.com/summaries"], artifacts: [artifact]
      })
      const submitted = yield* decide(owner, submit, "APPROVE")
      expect(submitted).toMatchObject({ stableName: "jobs.submit_delivery", state: "SUCCEEDED", isError: false })
      expect(submitted.result.bounty).toMatchObject({ state: "SUBMITTED", version: 4, delivery: { links: ["https://example.com/summaries"], artifacts: [artifact] } })
      expect(yield* bountyRow(bountyId(1))).toMatchObject({ state: "SUBMITTED", delivery: { message: "Ten summaries, one per paper." } })
    }), 180_000)

  it.effect("a denied call changes nothing; a refusal is the tool's error with the problem; bad arguments fail before approval", () =>
    Effect.gen(function*() {
      const owner = yield* signIn("owner")
      const conversation = yield* insertConversation(agent, "owner", "CHAT")

      const denied = yield* decide(owner, yield* ask(owner, conversation, "jobs__claim_bounty", { bountyId: bountyId(2), expectedVersion: 2 }), "DENY")
      expect(denied).toMatchObject({ state: "DENIED", approvalState: "DENIED" })
      expect(yield* bountyRow(bountyId(2))).toMatchObject({ state: "OPEN", version: 2, claimantWorkspaceId: null })

      // a stale version: the service's 409, as the REST operation words it
      const stale = yield* decide(owner, yield* ask(owner, conversation, "jobs__claim_bounty", { bountyId: bountyId(2), expectedVersion: 1 }), "APPROVE")
      expect(stale).toMatchObject({ state: "FAILED", isError: true, errorCode: "TOOL_ERROR" })
      expect(stale.result).toMatchObject({ status: 409, type: expect.stringContaining("version-conflict") })
      // delivering a bounty the workspace did not claim: the claimant side's 404, as Jobs_SubmitBountyDelivery answers
      const unclaimed = yield* decide(owner, yield* ask(owner, conversation, "jobs__submit_delivery", {
        bountyId: bountyId(3), expectedVersion: 2, message: "Done."
      }), "APPROVE")
      expect(unclaimed.result).toMatchObject({ status: 404, type: expect.stringContaining("bounty-not-found") })
      // a mailto link is a URI but not the operation's http(s) URL: named by its pointer, after approval, nothing changed
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE bounties SET state = 'CLAIMED', version = 3,
        claimant_workspace_id = ${DemoWorkspaces.acme.id}, claimant_agent_id = ${agent}, payout_address = ${AcmePayout},
        claimed_at = ${TestEpoch}, delivery_due_at = '2026-07-01T00:00:00Z' WHERE id = ${bountyId(3)}`).pipe(Effect.orDie)
      const http = yield* decide(owner, yield* ask(owner, conversation, "jobs__submit_delivery", {
        bountyId: bountyId(3), expectedVersion: 3, message: "Done.", links: ["mailto:someone@example.com"]
      }), "APPROVE")
      expect(http).toMatchObject({ state: "FAILED", errorCode: "INVALID_ARGUMENTS" })
      expect(http.result.pointers).toEqual([expect.stringMatching(/^\/links/)])
      expect((yield* bountyRow(bountyId(3))).state).toBe("CLAIMED")

      // an artifact digest in upper case: refused by the tool's schema at once, no approval asked
      const runId = yield* send(owner, conversation, `/tool jobs__submit_delivery ${JSON.stringify({
        bountyId: bountyId(3), expectedVersion: 3, message: "Done.", artifacts: [{ name: "a", sha256: "C".repeat(64) }]
      })}`)
      yield* awaitRun(runId)
      const [refused] = yield* toolCalls(runId)
      expect(refused).toMatchObject({ state: "FAILED", approvalState: "NOT_REQUIRED", errorCode: "INVALID_ARGUMENTS" })
    }), 180_000)
})
