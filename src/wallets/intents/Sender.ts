/**
 * The platform's transaction sender (layers/TransactionIntents.ts): every `CHAIN_POLL_INTERVAL_MS`,
 * in every process, one round that
 *
 * 1. sends each PREPARED PLATFORM intent (`TransactionIntents.submitByPlatform`: policy
 *    check, nonce under a lock per network and sender, signature, SUBMITTED recorded before the
 *    broadcast, broadcast), oldest first, at most {@link SenderBatch} a round;
 * 2. records AWAITING_SIGNATURE intents past their `expiresAt` EXPIRED;
 * 3. broadcasts again the SUBMITTED intents unchanged for {@link RebroadcastAfterMs} whose
 *    transaction the node does not know.
 *
 * Its state is the database's: rounds of several processes at once are safe (each intent is
 * locked while it is signed, so it is signed and broadcast once), a process that dies between
 * the record and the broadcast leaves an intent step 3 sends. No round runs when no network is
 * configured (`CHAIN_RPC_URLS`).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schedule } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { retryTransient } from "../../../layers/Engine.js"
import type { Ids } from "../../../layers/Ids.js"
import { TransactionIntents } from "../../../layers/TransactionIntents.js"

/** Intents a round sends at most. */
export const SenderBatch = 20
/** How long a SUBMITTED intent stays unchanged before the node is asked whether it knows it (ms). */
export const RebroadcastAfterMs = 30_000

/** One sender round (see the module docs); failures of one intent are logged and left for the next round. */
export const senderRound = Effect.gen(function*() {
  const intents = yield* TransactionIntents
  const ids = yield* intents.pendingPlatform(SenderBatch)
  for (const id of ids) {
    yield* intents.submitByPlatform(id).pipe(
      Effect.catchAll((e) =>
        Effect.logWarning("platform intent not sent").pipe(Effect.annotateLogs({ intentId: id, problem: e._tag }))
      )
    )
  }
  yield* intents.expireDue
  yield* intents.rebroadcast(RebroadcastAfterMs)
})

/** The sender loop of this process (nothing when no network is configured). */
export const IntentSenderLive: Layer.Layer<never, never, AppConfig | TransactionIntents | SqlClient.SqlClient | Ids> =
  Layer.scopedDiscard(Effect.gen(function*() {
    const config = yield* AppConfig
    if (config.chainRpcUrls.size === 0) return
    yield* senderRound.pipe(
      retryTransient,
      Effect.catchAllCause((cause) => Effect.logError("transaction sender round failed", cause)),
      Effect.repeat(Schedule.spaced(`${config.chain.pollIntervalMs} millis`)),
      Effect.forkScoped
    )
  }))
