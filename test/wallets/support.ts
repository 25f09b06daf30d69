/**
 * Helpers for the Wallets tests: the cancel call with the demo policies' phrases and
 * direct reads of a policy row.
 */
import { SqlClient } from "@effect/sql"
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { DemoWalletPolicies } from "../../demo/wallets/seed.js"
import { call, type CallOptions } from "../support/http.js"

export type DemoPolicyName = keyof typeof DemoWalletPolicies

/** The id of a demo policy, or the string itself. */
export const policyIdOf = (policy: DemoPolicyName | string) =>
  policy in DemoWalletPolicies ? DemoWalletPolicies[policy as DemoPolicyName].id : policy

/** The cancel path of a policy. */
export const cancelPath = (policy: DemoPolicyName | string) => `/api/v1/wallet-policies/${policyIdOf(policy)}/cancel`

/** A valid cancel body for a policy at `expectedVersion` (default: its demo version). */
export const cancelBody = (policy: DemoPolicyName | string, expectedVersion?: number) => ({
  expectedVersion: expectedVersion ?? (policy in DemoWalletPolicies ? DemoWalletPolicies[policy as DemoPolicyName].version : 1),
  reason: "The provider session is no longer needed.",
  confirmation: `CANCEL ${policyIdOf(policy)}`
})

/** POST /api/v1/wallet-policies/{policyId}/cancel. */
export const cancel = (policy: DemoPolicyName | string, options: CallOptions = {}) =>
  call("POST", cancelPath(policy), { body: cancelBody(policy), ...options })

/** A policy row as stored. */
export const readPolicy = (policy: DemoPolicyName) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ state: string; version: number; completedAt: string | null; reason: string | null }>`
      SELECT state, version::int AS version, api_ts(completed_at) AS "completedAt", cancellation_reason AS reason
      FROM wallet_policies WHERE id = ${DemoWalletPolicies[policy].id}`
    expect(rows).toHaveLength(1)
    return rows[0]!
  }).pipe(Effect.orDie)

/** Asserts that a policy still has its demo state and version. */
export const expectPolicyUnchanged = (policy: DemoPolicyName) =>
  Effect.map(readPolicy(policy), (row) => {
    expect(row.state).toBe(DemoWalletPolicies[policy].state)
    expect(row.version).toBe(DemoWalletPolicies[policy].version)
  })
