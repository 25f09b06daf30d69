/** Helpers of the Launch tests: the materialize call, direct reads, a reset to the demo runs, and the test chain. */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Redacted } from "effect"
import type { Address } from "viem"
import { type Anvil, startAnvil } from "../../demo/chain/anvil.js"
import { compileContracts, deployContract } from "../../demo/chain/contracts.js"
import { DemoLaunchNetwork, DemoLaunchRuns, type DemoLaunchRunName, seedLaunchRuns } from "../../demo/launch/seed.js"
import { call, type CallOptions } from "../support/http.js"
import { testConfig, type TestConfigShape } from "../support/config.js"

/** POST /api/v1/launch-runs/{runId}/transaction-intent (a demo run name or any id). */
export const materialize = (run: DemoLaunchRunName | string, options: CallOptions = {}) =>
  call("POST", `/api/v1/launch-runs/${run in DemoLaunchRuns ? DemoLaunchRuns[run as DemoLaunchRunName].id : run}/transaction-intent`, options)

/** A run's row as stored. */
export const readRun = (run: DemoLaunchRunName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ state: string; version: number; attemptCount: number; intentId: string | null }>`
      SELECT state, version::int AS version, attempt_count AS "attemptCount", transaction_intent_id AS "intentId"
      FROM launch_runs WHERE id = ${DemoLaunchRuns[run].id}`
    return rows[0]!
  }).pipe(Effect.orDie)

/** A run's transaction intents, by attempt. */
export const readIntents = (run: DemoLaunchRunName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ id: string; attempt: number; state: string }>`
      SELECT id, attempt, state FROM launch_transaction_intents WHERE launch_run_id = ${DemoLaunchRuns[run].id} ORDER BY attempt`
  }).pipe(Effect.orDie)

/** Puts every demo launch run (and its intents and drafts) back as seeded; runs and drafts made by tests go too. */
export const restoreLaunchRuns = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM launch_transaction_intents`
  yield* sql`DELETE FROM transaction_intents WHERE purpose_kind = 'launch-run'`
  yield* sql`DELETE FROM launch_runs`
  yield* sql`DELETE FROM launch_drafts`
  yield* seedLaunchRuns
}).pipe(Effect.orDie)

/** Anvil on the demo drafts' network (`eip155:31337`) with the ERC-8004 Identity Registry deployed by account 0. */
export const startLaunchChain = async (): Promise<{ readonly anvil: Anvil; readonly registry: Address }> => {
  const anvil = await startAnvil()
  if (anvil.network !== DemoLaunchNetwork) throw new Error(`anvil runs ${anvil.network}, not ${DemoLaunchNetwork}`)
  compileContracts()
  const registry = await deployContract({ wallet: anvil.wallet(0), publicClient: anvil.publicClient }, "IdentityRegistry")
  return { anvil, registry }
}

/** Server settings for `anvil`: its RPC allowed, `confirmations` (default 2), the registry as `identityRegistry`. */
export const launchChainOverrides = (anvil: Anvil, registry: Address, confirmations = 2): Partial<TestConfigShape> => ({
  chainRpcUrls: new Map([[anvil.network, anvil.rpcUrl]]),
  outbound: { ...testConfig().outbound, allowedHosts: [anvil.host] },
  chain: {
    ...testConfig().chain,
    confirmations: new Map([[anvil.network, confirmations]]),
    contracts: new Map([[anvil.network, new Map([["identityRegistry", registry]])]]),
    signerKey: Option.some(Redacted.make(anvil.privateKeys[0]!)),
    pollIntervalMs: 100
  }
})
