/**
 * The purge of expired identity challenges on the durable engine (`layers/Engine.ts`):
 * a challenge of Agents_CreateIdentityChallenge lives 10 minutes and can never be used
 * after; the `PurgeIdentityChallenges` ClusterCron deletes the expired ones every 15
 * minutes (UTC) with one idempotent `DELETE … WHERE expires_at <= now` (Effect's `Clock`).
 * A proof with a purged challenge is 404 `identity-challenge-not-found` instead of 410.
 */
import { ClusterCron } from "@effect/cluster"
import { Cron, Duration, Effect, Layer } from "effect"
import { now } from "../../layers/Clock.js"
import { IdentitiesRepo } from "./IdentitiesRepo.js"

/** One purge: deletes the challenges expired now and returns how many. Requires `SqlClient`, `IdentitiesRepo`. */
export const purgeExpiredIdentityChallenges = Effect.flatMap(IdentitiesRepo, (repo) => Effect.flatMap(now, repo.deleteExpired))

/** The cron job (`PurgeIdentityChallenges`, every 15 minutes UTC). A late occurrence still runs (it only catches up). */
export const IdentityChallengePurgeLive = ClusterCron.make({
  name: "PurgeIdentityChallenges",
  cron: Cron.unsafeParse("*/15 * * * *", "UTC"),
  skipIfOlderThan: Duration.days(3650),
  execute: purgeExpiredIdentityChallenges.pipe(
    Effect.tap((deleted) =>
      deleted === 0 ? Effect.void : Effect.logInfo("expired identity challenges purged").pipe(Effect.annotateLogs({ deleted }))
    ),
    Effect.asVoid
  )
}).pipe(Layer.provide(IdentitiesRepo.Default))
