/**
 * What a launch run does when its chain transaction moves (layers/TransactionIntents.ts
 * `IntentOutcomeHandler`, purpose kind `launch-run`), in the transaction that records the
 * intent's change, so each outcome is applied once:
 *
 * - SUBMITTED → the run SUBMITTED, `providerReference` = the transaction hash, `submittedAt`,
 *   step SUBMISSION; SUBMITTED again after OBSERVED (its block left the canonical chain) →
 *   back to SUBMITTED, `observedAt` cleared, step OBSERVATION REORGED.
 * - OBSERVED → OBSERVED, `observedAt`, step OBSERVATION.
 * - CONFIRMED → the receipt's `Registered` log of the registry (else its ERC-721 `Transfer`
 *   mint) names the token: `observedAssetId` = `eip155:<chainId>/erc721:<registry>/<agentId>`,
 *   CONFIRMED then COMPLETED (`confirmedAt`, `completedAt`, steps CONFIRMATION and COMPLETION);
 *   the token becomes the agent's proven registry identity and a DOMAIN_EVENT
 *   `launch.completed` activity item is recorded. A confirmed receipt without the token's
 *   log is MANUAL_REVIEW (`failureCode` `registration-not-found`).
 * - FAILED → RETRYABLE_FAILURE, `failureCode` the intent's (default `transaction-reverted`);
 *   EXPIRED → RETRYABLE_FAILURE `signature-expired`; REPLACED → RETRYABLE_FAILURE
 *   `transaction-replaced`.
 *
 * An event of an intent that is not the run's current one (a superseded attempt), or one the run
 * already reflects (a second call for one state), changes nothing.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { getAddress, parseEventLogs, zeroAddress } from "viem"
import { recordActivity } from "../../layers/Activity.js"
import { now } from "../../layers/Clock.js"
import type { IntentEvent, IntentOutcomeHandler } from "../../layers/TransactionIntents.js"
import { recordProvenRegistryToken } from "../agents/index.js"
import { IdentityRegistryAbi } from "./IdentityRegistryAbi.js"
import { registryTokenAssetId, step } from "./Launch.js"
import { LaunchRepo } from "./Repo.js"

/** The token a confirmed receipt minted on `registry`: the `Registered` log's agentId and owner, else the mint `Transfer`'s. */
export const mintedToken = (event: IntentEvent): { readonly tokenId: bigint; readonly owner: string } | undefined => {
  const registry = getAddress(event.intent.to)
  const logs = (event.receipt?.logs ?? []).filter((l) => getAddress(l.address) === registry)
  const parsed = parseEventLogs({ abi: IdentityRegistryAbi, logs, strict: true })
  for (const log of parsed) {
    if (log.eventName === "Registered") return { tokenId: log.args.agentId, owner: log.args.owner }
  }
  for (const log of parsed) {
    if (log.eventName === "Transfer" && log.args.from === zeroAddress) return { tokenId: log.args.tokenId, owner: log.args.to }
  }
  return undefined
}

const failures: Record<string, readonly [code: string, summary: string]> = {
  FAILED: ["transaction-reverted", "The registration transaction failed on the chain; materialize a new attempt."],
  EXPIRED: ["signature-expired", "The transaction was not signed in time; materialize a new attempt."],
  REPLACED: ["transaction-replaced", "Another transaction took the wallet's nonce; materialize a new attempt."]
}

/** The launch area's outcome handler (see the module's description). */
export const launchRunOutcome: IntentOutcomeHandler = (event) =>
  Effect.gen(function*() {
    const repo = yield* LaunchRepo
    const sql = yield* SqlClient.SqlClient
    const runId = event.purpose.id
    const found = yield* repo.lockRun(runId)
    if (Option.isNone(found)) return
    const run = found.value
    const current = yield* sql<{ current: boolean; attempt: number }>`SELECT r.transaction_intent_id = ${event.intent.id} AS current,
        r.attempt_count AS attempt FROM launch_runs r WHERE r.id = ${runId}`
    if (!current[0]?.current) return
    const attempt = current[0].attempt
    const at = yield* now
    const hash = event.intent.transactionHash
    switch (event.state) {
      case "SUBMITTED": {
        if (run.state === "AWAITING_SIGNATURE" || run.state === "EXECUTION_PENDING") {
          yield* repo.markAttempt(event.intent.id, "SIGNED")
          yield* repo.advance({
            id: runId, state: "SUBMITTED", at, providerReference: hash, submittedAt: event.intent.submittedAt ?? at,
            steps: [step("SIGNATURE", "COMPLETED", attempt, at), step("SUBMISSION", "COMPLETED", attempt, at, { providerReference: hash })]
          })
        } else if (run.state === "OBSERVED") {
          yield* repo.advance({
            id: runId, state: "SUBMITTED", at, observedAt: null,
            steps: [step("OBSERVATION", "REORGED", attempt, at, { providerReference: hash })]
          })
        }
        return
      }
      case "OBSERVED": {
        if (run.state === "SUBMITTED" || run.state === "AWAITING_SIGNATURE") {
          yield* repo.advance({
            id: runId, state: "OBSERVED", at, providerReference: hash, observedAt: event.intent.observedAt ?? at,
            ...(run.state === "AWAITING_SIGNATURE" ? { submittedAt: event.intent.submittedAt ?? at } : {}),
            steps: [step("OBSERVATION", "COMPLETED", attempt, at, { providerReference: hash })]
          })
        }
        return
      }
      case "CONFIRMED": {
        if (!["AWAITING_SIGNATURE", "SUBMITTED", "OBSERVED"].includes(run.state)) return
        const token = mintedToken(event)
        const confirmedAt = event.intent.confirmedAt ?? at
        if (token === undefined || run.agentId === null) {
          yield* repo.advance({
            id: runId, state: "MANUAL_REVIEW", at, providerReference: hash, confirmedAt,
            failure: ["registration-not-found", "The confirmed transaction minted no identity token of the registry."],
            steps: [step("CONFIRMATION", "COMPLETED", attempt, at, { providerReference: hash }), step("COMPLETION", "FAILED", attempt, at, { errorCode: "registration-not-found" })]
          })
          return
        }
        const assetId = registryTokenAssetId(event.intent.network, event.intent.to, token.tokenId)
        yield* repo.advance({
          id: runId, state: "COMPLETED", at, providerReference: hash, observedAssetId: assetId,
          observedAt: event.intent.observedAt ?? at, confirmedAt, completedAt: at,
          steps: [
            step("CONFIRMATION", "COMPLETED", attempt, at, { providerReference: hash }),
            step("COMPLETION", "COMPLETED", attempt, at, { providerReference: assetId })
          ]
        })
        yield* recordProvenRegistryToken({
          agentId: run.agentId,
          network: event.intent.network,
          registry: event.intent.to,
          tokenId: token.tokenId.toString(),
          owner: token.owner,
          at
        })
        yield* recordActivity({
          agentId: run.agentId,
          activityKey: "launch.completed",
          dedupeKey: `launch-run:${runId}`,
          sourceKind: "DOMAIN_EVENT",
          summary: `Registered on the ERC-8004 Identity Registry of ${event.intent.network} as agent ${token.tokenId}.`,
          network: event.intent.network,
          transactionReference: hash,
          explorerUrl: event.intent.explorerUrl,
          evidencePublicId: runId,
          occurredAt: at
        })
        return
      }
      case "FAILED":
      case "EXPIRED":
      case "REPLACED": {
        if (run.state === "RETRYABLE_FAILURE" || run.state === "COMPLETED") return
        const [code, summary] = failures[event.state]!
        const failureCode = event.state === "FAILED" ? event.intent.failureCode ?? code : code
        yield* repo.markAttempt(event.intent.id, "FAILED")
        yield* repo.advance({
          id: runId, state: "RETRYABLE_FAILURE", at, failure: [failureCode, summary],
          steps: [step(event.state === "EXPIRED" ? "SIGNATURE" : "CONFIRMATION", "FAILED", attempt, at, { providerReference: hash, errorCode: failureCode })]
        })
        return
      }
      default:
        return
    }
  }).pipe(Effect.provide(LaunchRepo.Default), Effect.orDie)
