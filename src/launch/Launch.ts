/**
 * Domain rules of the Launch area (spec §2.4, §3, §4.3).
 */
import { Effect } from "effect"
import { now } from "../../layers/Clock.js"
import { Ids } from "../../layers/Ids.js"
import { LaunchRunNotFound } from "./Errors.js"
import { runVersioned } from "../db/versioned.js"
import { LaunchRepo, MaterializableStates } from "./Repo.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"
import { rolesFor } from "../../schema/roles.js"

/** Launch runs: materializing their transaction intents. Requires `SqlClient` and `Ids`. */
export class Launch extends Effect.Service<Launch>()("agent-directory/Launch", {
  effect: Effect.gen(function*() {
    const repo = yield* LaunchRepo
    const ids = yield* Ids

    /**
     * Launch_MaterializeLaunchTransaction (spec §4.3): creates the transaction intent of
     * the run's current attempt and returns the run (spec §2.4) in AWAITING_SIGNATURE
     * with `transactionIntentId`, the TRANSACTION_INTENT and SIGNATURE steps appended
     * and `version` + 1. From PREPARING or AWAITING_FUNDING the intent belongs to the
     * current attempt; from RETRYABLE_FAILURE it starts the next attempt
     * (`attemptCount` + 1, the failure cleared, the failed intent SUPERSEDED).
     * One conditional UPDATE (src/db/versioned.ts), so of concurrent calls at one
     * version exactly one creates an intent.
     *
     * Fails with `LaunchRunNotFound` (`launch-run-not-found`: no such run, or not in one of the
     * caller's workspaces), `RoleRequired` (`role-required`: not OWNER, ADMIN, EDITOR or
     * OPERATOR), `VersionConflict` (`version-conflict`, `invalid-state`).
     */
    const materialize = (input: { readonly runId: string; readonly expectedVersion: number; readonly accountId: string }) =>
      Effect.gen(function*() {
        const at = yield* now
        const intentId = yield* ids.next
        const attempt = yield* runVersioned({
          resource: "launch run",
          expectedVersion: input.expectedVersion,
          fromStates: MaterializableStates,
          roles: rolesFor("launch.operate"),
          update: repo.materialize({ id: input.runId, expectedVersion: input.expectedVersion, accountId: input.accountId, intentId, at }),
          current: repo.access({ id: input.runId, accountId: input.accountId }),
          notFound: () => new LaunchRunNotFound({ detail: `No launch run ${input.runId}.` })
        })
        yield* repo.insertIntent({ id: intentId, runId: input.runId, attempt, at })
        return yield* repo.findById(input.runId).pipe(Effect.flatMap(Effect.orDie))
      }).pipe(dieOnStorageFailure)

    return { materialize }
  }),
  dependencies: [LaunchRepo.Default]
}) {}
