/**
 * Upstream sources: the admin commands (Partners_CreateUpstreamSource, Partners_ListUpstreamSources,
 * Partners_SyncUpstreamSource). Requires `SqlClient`, `Ids`, `Outbound` and the `WorkflowEngine`.
 */
import { SqlClient } from "@effect/sql"
import { WorkflowEngine } from "@effect/workflow"
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { explainRefusal, updateVersioned } from "../../db/versioned.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { UpstreamSourceNotFound } from "./Errors.js"
import { UpstreamRepo } from "./Repo.js"
import type { CreateUpstreamSourceRequest, SyncUpstreamSourceRequest } from "./Schemas.js"
import { UpstreamSync } from "./Sync.js"

/** A registry address in EIP-55 form is not needed for reading logs; it is stored lower-case. */
const lowerAddress = (a: string) => a.toLowerCase()

export class Sources extends Effect.Service<Sources>()("agent-directory/UpstreamSources", {
  effect: Effect.gen(function*() {
    const repo = yield* UpstreamRepo
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    const engine = yield* WorkflowEngine.WorkflowEngine

    const found = (id: string) => repo.findById(id).pipe(Effect.flatMap(Effect.orDie))

    /** Partners_CreateUpstreamSource: the new source, ACTIVE, version 1, due now. */
    const create = (body: CreateUpstreamSourceRequest) =>
      Effect.gen(function*() {
        const id = yield* ids.next
        const at = yield* now
        yield* repo.insert({
          id,
          kind: body.kind,
          displayName: body.displayName,
          baseUrl: body.kind === "MCP_REGISTRY" ? body.baseUrl.replace(/\/+$/, "") : null,
          network: body.kind === "ERC8004" ? body.network : null,
          registryAddress: body.kind === "ERC8004" ? lowerAddress(body.registryAddress) : null,
          rpcUrl: body.kind === "ERC8004" ? body.rpcUrl ?? null : null,
          domains: body.kind === "WELL_KNOWN" ? [...new Set(body.domains.map((d) => d.toLowerCase()))] : [],
          syncIntervalSeconds: body.syncIntervalSeconds,
          at
        })
        return yield* found(id)
      }).pipe(dieOnStorageFailure)

    /** Partners_ListUpstreamSources: every source, oldest first (at most 500). */
    const list = repo.list().pipe(dieOnStorageFailure)

    /**
     * Partners_SyncUpstreamSource: `nextSyncAt` = now, version + 1, and its `UpstreamSync` workflow
     * started in the same transaction. Fails with `UpstreamSourceNotFound`, `VersionConflict`, `Conflict`.
     */
    const requestSync = (sourceId: string, body: SyncUpstreamSourceRequest) =>
      Effect.gen(function*() {
        const at = yield* now
        const changed = yield* updateVersioned({
          table: "upstream_sources",
          id: sourceId,
          expectedVersion: body.expectedVersion,
          set: sql`next_sync_at = ${at}, updated_at = ${at}`
        })
        if (Option.isNone(changed)) {
          return yield* Effect.flatMap(repo.findById(sourceId), (current) =>
            explainRefusal({
              resource: "upstream-source",
              id: sourceId,
              notFound: (detail) => new UpstreamSourceNotFound({ detail }),
              current: Option.map(current, (s) => ({ version: s.version, state: s.state })),
              expectedVersion: body.expectedVersion
            }))
        }
        yield* UpstreamSync.execute(
          { sourceId, version: changed.value, dueAt: at.toISOString(), full: body.full },
          { discard: true }
        ).pipe(Effect.provideService(WorkflowEngine.WorkflowEngine, engine))
        return yield* found(sourceId)
      }).pipe(dieOnStorageFailure)

    return { create, list, requestSync }
  }),
  dependencies: [UpstreamRepo.Default]
}) {}
