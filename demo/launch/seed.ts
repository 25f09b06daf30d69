/**
 * Demo launch runs (spec §2.4) in the states Launch_MaterializeLaunchTransaction
 * meets: the ones it starts from (PREPARING, AWAITING_FUNDING, RETRYABLE_FAILURE),
 * ones it refuses (CREATED, AWAITING_SIGNATURE, COMPLETED), and one in the outsider's
 * workspace (invisible to Acme members). Each has its draft (Atlas for Acme's runs, Cobalt
 * for the outsider's) on the local chain `eip155:31337` (anvil, demo/chain/anvil.ts), signed by
 * anvil's account 1 ({@link DemoLaunchSigner}).
 */
import { encodeFunctionData } from "viem"
import { IdentityRegistryAbi } from "../../src/launch/IdentityRegistryAbi.js"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { demoId, demoTime } from "../common.js"
import { DemoAccounts } from "../accounts/seed.js"
import { DemoWorkspaces } from "../workspaces/seed.js"
import { DemoAgents } from "../agents/seed.js"

/** The network of the demo drafts: a local anvil chain. */
export const DemoLaunchNetwork = "eip155:31337"
/** The owner's wallet of the demo drafts: anvil's account 1 (demo/chain/anvil.ts `AnvilMnemonic`). */
export const DemoLaunchSigner = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

/** The Identity Registry the demo's local chain would have (the first contract anvil's account 0 deploys). */
export const DemoLaunchRegistry = "0x5FbDB2315678afecb367f032d93F642f64180aa3"

type Step = readonly [step: string, state: string]

const run = (n: number, r: {
  readonly workspace: keyof typeof DemoWorkspaces
  readonly venue: "REGISTRY_GENESIS" | "LAUNCHPAD_FUN" | "BROKER_CHAIN" | "EXTERNAL_IMPORT"
  readonly state: string
  readonly version: number
  readonly attemptCount: number
  /** The current attempt's transaction intent, if one was materialized. */
  readonly intent: number | null
  readonly failure: readonly [code: string, summary: string] | null
  readonly steps: ReadonlyArray<Step>
}) => ({ id: demoId(0x81, n), launchDraftId: demoId(0x80, n), day: 60 + n, ...r, intent: r.intent === null ? null : demoId(0x82, r.intent) })

export const DemoLaunchRuns = {
  /** PREPARING at version 1: the demo manifest materializes it. */
  preparing: run(1, { workspace: "acme", venue: "REGISTRY_GENESIS", state: "PREPARING", version: 1, attemptCount: 1, intent: null, failure: null, steps: [["PREPARE", "RUNNING"]] }),
  /** AWAITING_FUNDING at version 3. */
  funding: run(2, { workspace: "acme", venue: "REGISTRY_GENESIS", state: "AWAITING_FUNDING", version: 3, attemptCount: 1, intent: null, failure: null, steps: [["PREPARE", "COMPLETED"], ["FUNDING", "PENDING"]] }),
  /** RETRYABLE_FAILURE at version 5: attempt 1's intent failed; materializing starts attempt 2. */
  retryable: run(3, {
    workspace: "acme", venue: "REGISTRY_GENESIS", state: "RETRYABLE_FAILURE", version: 5, attemptCount: 1, intent: 1,
    failure: ["SIGNATURE_EXPIRED", "The signature request expired before the wallet signed it."],
    steps: [["PREPARE", "COMPLETED"], ["TRANSACTION_INTENT", "COMPLETED"], ["SIGNATURE", "FAILED"]]
  }),
  /** AWAITING_SIGNATURE: already materialized, refused. */
  signing: run(4, { workspace: "acme", venue: "REGISTRY_GENESIS", state: "AWAITING_SIGNATURE", version: 4, attemptCount: 1, intent: 2, failure: null, steps: [["PREPARE", "COMPLETED"], ["TRANSACTION_INTENT", "COMPLETED"], ["SIGNATURE", "PENDING"]] }),
  /** COMPLETED: refused. */
  completed: run(5, { workspace: "acme", venue: "EXTERNAL_IMPORT", state: "COMPLETED", version: 9, attemptCount: 1, intent: 3, failure: null, steps: [["PREPARE", "COMPLETED"], ["TRANSACTION_INTENT", "COMPLETED"], ["SIGNATURE", "COMPLETED"], ["CONFIRMATION", "COMPLETED"]] }),
  /** CREATED (not yet prepared): refused. */
  created: run(6, { workspace: "acme", venue: "LAUNCHPAD_FUN", state: "CREATED", version: 1, attemptCount: 0, intent: null, failure: null, steps: [] }),
  /** AWAITING_FUNDING at version 2; spare for tests. */
  spare: run(7, { workspace: "acme", venue: "REGISTRY_GENESIS", state: "AWAITING_FUNDING", version: 2, attemptCount: 1, intent: null, failure: null, steps: [["PREPARE", "COMPLETED"], ["FUNDING", "PENDING"]] }),
  /** In the outsider's workspace. */
  foreign: run(8, { workspace: "outsider", venue: "REGISTRY_GENESIS", state: "PREPARING", version: 1, attemptCount: 1, intent: null, failure: null, steps: [["PREPARE", "RUNNING"]] })
} as const
export type DemoLaunchRunName = keyof typeof DemoLaunchRuns

const isDone = (state: string) => state === "COMPLETED" || state === "FAILED"

/** Inserts the demo launch runs and their transaction intents. Fails with `SqlError`. */
export const seedLaunchRuns = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const runs = Object.values(DemoLaunchRuns)
  const agentOf = (r: (typeof runs)[number]) => r.workspace === "acme" ? DemoAgents[0].id : DemoAgents[2].id
  yield* sql`INSERT INTO launch_drafts ${
    sql.insert(runs.map((r) => ({
      id: r.launchDraftId,
      workspace_id: DemoWorkspaces[r.workspace].id,
      agent_id: agentOf(r),
      venue: r.venue,
      network: DemoLaunchNetwork,
      signer_address: DemoLaunchSigner,
      token_id: r.venue === "EXTERNAL_IMPORT" ? String(r.day) : null,
      created_by: DemoAccounts[r.workspace === "acme" ? "owner" : "outsider"].id,
      created_at: demoTime(r.day)
    })))
  }`
  yield* sql`INSERT INTO launch_runs ${
    sql.insert(runs.map((r) => {
      const at = demoTime(r.day)
      const completed = r.state === "COMPLETED"
      return {
        id: r.id,
        workspace_id: DemoWorkspaces[r.workspace].id,
        launch_draft_id: r.launchDraftId,
        agent_id: agentOf(r),
        venue: r.venue,
        state: r.state,
        transaction_intent_id: r.intent,
        provider_reference: completed ? `demo-provider-${r.day}` : null,
        expected_asset_locator: r.venue === "EXTERNAL_IMPORT" ? null : `eip155:8453/erc20:0x${r.day.toString(16).padStart(40, "0")}`,
        observed_asset_id: completed ? `asset-${r.day}` : null,
        failure_code: r.failure?.[0] ?? null,
        failure_summary: r.failure?.[1] ?? null,
        attempt_count: r.attemptCount,
        version: r.version,
        steps: JSON.stringify(r.steps.map(([step, state], i) => ({
          step,
          state,
          attemptCount: r.attemptCount,
          providerReference: null,
          errorCode: state === "FAILED" ? r.failure?.[0] ?? null : null,
          startedAt: demoTime(r.day, i).toISOString(),
          completedAt: isDone(state) ? demoTime(r.day, i + 1).toISOString() : null
        }))),
        requested_at: at,
        submitted_at: completed ? demoTime(r.day, 10) : null,
        observed_at: completed ? demoTime(r.day, 11) : null,
        confirmed_at: completed ? demoTime(r.day, 12) : null,
        completed_at: completed ? demoTime(r.day, 13) : null,
        updated_at: demoTime(r.day, r.steps.length)
      }
    }))
  }`
  // the signing run's intent as the owner's wallet reads it (Wallets_GetTransactionIntent): register(agentURI) on the
  // local chain's registry, waiting for the signature of the draft's wallet
  const signing = DemoLaunchRuns.signing
  const agentUri = `https://directory.test/api/v1/agents/${DemoAgents[0].id}/erc8004-registration.json`
  yield* sql`INSERT INTO transaction_intents ${
    sql.insert({
      id: signing.intent,
      network: DemoLaunchNetwork,
      workspace_id: DemoWorkspaces.acme.id,
      owner_account_id: DemoAccounts.owner.id,
      state: "AWAITING_SIGNATURE",
      signer: "OWNER",
      purpose_kind: "launch-run",
      purpose_id: signing.id,
      from_address: DemoLaunchSigner,
      to_address: DemoLaunchRegistry,
      data: encodeFunctionData({ abi: IdentityRegistryAbi, functionName: "register", args: [agentUri] }),
      call: JSON.stringify({ functionName: "register", signature: "register(string)", args: [agentUri] }),
      value: "0",
      gas_limit: "180000",
      max_fee_per_gas: "2000000000",
      max_priority_fee_per_gas: "1000000000",
      nonce: 0,
      typed_data: null,
      expires_at: new Date("2030-01-01T00:00:00.000Z"),
      created_at: demoTime(signing.day, 1),
      updated_at: demoTime(signing.day, 1),
      version: 1
    })
  } ON CONFLICT (id) DO NOTHING`
  yield* sql`INSERT INTO launch_transaction_intents ${
    sql.insert(runs.flatMap((r) =>
      r.intent === null ? [] : [{
        id: r.intent,
        transaction_intent_id: r.intent,
        launch_run_id: r.id,
        attempt: r.attemptCount,
        state: r.state === "RETRYABLE_FAILURE" ? "FAILED" : r.state === "COMPLETED" ? "SIGNED" : "AWAITING_SIGNATURE",
        created_at: demoTime(r.day, 1)
      }]
    ))
  }`
})
