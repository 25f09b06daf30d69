/**
 * The purge of expired identity challenges on the durable engine (`layers/Engine.ts`):
 * a challenge of Agents_CreateIdentityChallenge lives 10 minutes and can never be used
 * after; the `PurgeIdentityChallenges` ClusterCron deletes the expired ones every 15
 * minutes (UTC) with one idempotent `DELETE … WHERE expires_at <= now` (Effect's `Clock`).
 * A proof with a purged challenge is 404 `identity-challenge-not-found` instead of 410.
 */
import { Effect, Layer } from "effect"
import { now } from "../../../layers/Clock.js"
import { expiredRowsPurge } from "../../../layers/Engine.js"
import { IdentitiesRepo } from "./Repo.js"

/** One purge: deletes the challenges expired now and returns how many. Requires `SqlClient`, `IdentitiesRepo`. */
export const purgeExpiredIdentityChallenges = Effect.flatMap(IdentitiesRepo, (repo) => Effect.flatMap(now, repo.deleteExpired))

/** The cron job (`PurgeIdentityChallenges`, every 15 minutes UTC). */
export const IdentityChallengePurgeLive = expiredRowsPurge({
  name: "PurgeIdentityChallenges",
  what: "expired identity challenges",
  purge: (at) => Effect.flatMap(IdentitiesRepo, (repo) => repo.deleteExpired(at))
}).pipe(Layer.provide(IdentitiesRepo.Default))
