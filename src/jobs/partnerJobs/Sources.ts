/**
 * Domain rules of partner job sources (spec §2.18, §4.2): the admin commands Jobs_CreatePartnerJobSource,
 * Jobs_UpdatePartnerJobSource, Jobs_ListPartnerJobSources and Jobs_SyncPartnerJobSource. Requires `SqlClient`,
 * `Ids`, `Outbound`, `Audit` and the `WorkflowEngine`.
 */
import { SqlClient, type Statement } from "@effect/sql"
import { Effect, Option } from "effect"
import { Audit } from "../../../layers/Audit.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { Outbound } from "../../../layers/Outbound.js"
import { InvalidRequest } from "../../../schema/errors.js"
import { WorkflowEngine } from "@effect/workflow"
import type { CreatePartnerJobSourceRequest, SyncPartnerJobSourceRequest, UpdatePartnerJobSourceRequest } from "./Schemas.js"
import { requireConfirmation } from "../../db/confirmation.js"
import { explainRefusal, updateVersioned } from "../../db/versioned.js"
import { adapterVersion, PartnerJobsRepo } from "./Repo.js"
import { PartnerJobSync } from "./Sync.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { PartnerJobSourceCodeTaken, PartnerJobSourceNotFound } from "./Errors.js"

/** States from which a sync can be asked for. */
const syncableStates = ["ACTIVE", "DEGRADED"]

/**
 * The states from which an admin may set each state (Jobs_UpdatePartnerJobSource): ACTIVE resumes a PAUSED
 * source (an ACTIVE one stays; a DEGRADED one returns to ACTIVE only by a successful sync); PAUSED from a
 * syncing or PAUSED source; DISABLED from any but DISABLED. A DISABLED source changes no more.
 */
const targetFrom: Record<"ACTIVE" | "PAUSED" | "DISABLED", ReadonlyArray<string>> = {
  ACTIVE: ["ACTIVE", "PAUSED"],
  PAUSED: ["ACTIVE", "DEGRADED", "PAUSED"],
  DISABLED: ["ACTIVE", "DEGRADED", "PAUSED"]
}

/** The configuration fields of Jobs_UpdatePartnerJobSource (`configurationVersion` moves when one changes). */
const configurationFields = [
  "displayName",
  "websiteUrl",
  "endpointUrl",
  "responseSchemaVersion",
  "pollIntervalSeconds",
  "requestTimeoutMs"
] as const

/** Partner job sources: operator commands. Requires `SqlClient` and the `WorkflowEngine`. */
export class Sources extends Effect.Service<Sources>()("agent-directory/PartnerJobSources", {
  effect: Effect.gen(function*() {
    const repo = yield* PartnerJobsRepo
    const sql = yield* SqlClient.SqlClient
    const engine = yield* WorkflowEngine.WorkflowEngine
    const ids = yield* Ids
    const outbound = yield* Outbound
    const audit = yield* Audit

    /** Jobs_ListPartnerJobSources: every source, oldest first (at most 500). */
    const list = repo.list().pipe(dieOnStorageFailure)

    /**
     * Jobs_CreatePartnerJobSource: the new source, ACTIVE, version 1, its first sync due now (the every-minute
     * cron starts it). Fails with `OutboundTargetRefused` (400, `/endpointUrl`: the outbound rules refuse the
     * URL) and `PartnerJobSourceCodeTaken` (409).
     */
    const create = (body: CreatePartnerJobSourceRequest, adminAccountId: string) =>
      Effect.gen(function*() {
        yield* outbound.checkField(body.endpointUrl, "/endpointUrl")
        const id = yield* ids.next
        const at = yield* now
        const inserted = yield* repo.insert({ id, ...body, at })
        if (!inserted) {
          return yield* new PartnerJobSourceCodeTaken({ detail: "Another partner job source has this code." })
        }
        yield* audit.record({
          workspaceId: null,
          actorAccountId: adminAccountId,
          action: "partner_job_source.created",
          target: { type: "partner_job_source", id },
          details: { code: body.code }
        })
        return yield* repo.findById(id).pipe(Effect.flatMap(Effect.orDie))
      }).pipe(dieOnStorageFailure)

    /**
     * Jobs_UpdatePartnerJobSource: the configuration fields given (`configurationVersion` + 1 when one
     * changes; a new `endpointUrl` or `responseSchemaVersion` makes a syncing source's next sync due now) and
     * `state` (see {@link targetFrom}; resuming makes the next sync due now and clears the failure count),
     * version + 1. Fails with `InvalidRequest` (nothing to change), `OutboundTargetRefused` (`/endpointUrl`),
     * `PartnerJobSourceNotFound`, `VersionConflict`, `InvalidState`, `Conflict`.
     */
    const update = (sourceId: string, body: UpdatePartnerJobSourceRequest, adminAccountId: string) =>
      Effect.gen(function*() {
        const changedFields = configurationFields.filter((f) => body[f] !== undefined)
        if (changedFields.length === 0 && body.state === undefined) {
          return yield* new InvalidRequest({
            detail: "The body changes nothing: give a configuration field or `state`.",
            errors: [{ in: "body", pointer: "", detail: "must change at least one field" }]
          })
        }
        if (body.endpointUrl !== undefined) yield* outbound.checkField(body.endpointUrl, "/endpointUrl")
        const at = yield* now
        const fromStates = body.state === undefined ? ["ACTIVE", "DEGRADED", "PAUSED"] : targetFrom[body.state]
        const resync = body.endpointUrl !== undefined || body.responseSchemaVersion !== undefined
        const set: Array<Statement.Fragment> = [sql`updated_at = ${at}`]
        if (body.displayName !== undefined) set.push(sql`display_name = ${body.displayName}`)
        if (body.websiteUrl !== undefined) set.push(sql`website_url = ${body.websiteUrl}`)
        if (body.endpointUrl !== undefined) set.push(sql`endpoint_url = ${body.endpointUrl}`)
        if (body.responseSchemaVersion !== undefined) {
          set.push(sql`response_schema_version = ${body.responseSchemaVersion}`)
          set.push(sql`adapter_version = ${adapterVersion(body.responseSchemaVersion)}`)
        }
        if (body.pollIntervalSeconds !== undefined) set.push(sql`poll_interval_seconds = ${body.pollIntervalSeconds}`)
        if (body.requestTimeoutMs !== undefined) set.push(sql`request_timeout_ms = ${body.requestTimeoutMs}`)
        if (changedFields.length > 0) set.push(sql`configuration_version = configuration_version + 1`)
        if (body.state === "ACTIVE") {
          // resuming: due now, failures forgotten (an ACTIVE source keeps its schedule unless the feed moved)
          set.push(sql`failure_count = CASE WHEN state = 'PAUSED' THEN 0 ELSE failure_count END`)
          set.push(sql`next_sync_at = CASE WHEN state = 'PAUSED' OR ${resync} THEN ${at}::timestamptz ELSE next_sync_at END`)
          set.push(sql`state = 'ACTIVE'`)
        } else if (body.state !== undefined) {
          set.push(sql`state = ${body.state}`, sql`next_sync_at = NULL`)
        } else if (resync) {
          set.push(sql`next_sync_at = CASE WHEN state IN ('ACTIVE', 'DEGRADED') THEN ${at}::timestamptz ELSE next_sync_at END`)
        }
        const changed = yield* updateVersioned({
          table: "partner_job_sources",
          id: sourceId,
          expectedVersion: body.expectedVersion,
          set: sql.csv(set),
          fromStates
        })
        if (Option.isNone(changed)) {
          return yield* Effect.flatMap(repo.findById(sourceId), (found) =>
            explainRefusal({
              resource: "partner-job-source",
              id: sourceId,
              notFound: (detail) => new PartnerJobSourceNotFound({ detail }),
              current: Option.map(found, (s) => ({ version: s.version, state: s.state })),
              expectedVersion: body.expectedVersion,
              fromStates,
              stateDetail: (state) =>
                state === "DISABLED"
                  ? "The source is DISABLED; a disabled source changes no more."
                  : `The source is ${state}; ${body.state ?? "a change"} is allowed from ${fromStates.join(", ")}.`
            }))
        }
        yield* audit.record({
          workspaceId: null,
          actorAccountId: adminAccountId,
          action: "partner_job_source.updated",
          target: { type: "partner_job_source", id: sourceId },
          details: { fields: changedFields.join(","), state: body.state ?? null }
        })
        return yield* repo.findById(sourceId).pipe(Effect.flatMap(Effect.orDie))
      }).pipe(dieOnStorageFailure)

    const refuse = (sourceId: string, expectedVersion: number) =>
      Effect.flatMap(repo.findById(sourceId), (found) =>
        explainRefusal({
          resource: "partner-job-source",
          id: sourceId,
          notFound: (detail) => new PartnerJobSourceNotFound({ detail }),
          current: Option.map(found, (s) => ({ version: s.version, state: s.state })),
          expectedVersion,
          fromStates: syncableStates,
          stateDetail: (state) => `The source is ${state}; only ACTIVE or DEGRADED sources sync.`
        }))

    /**
     * Jobs_SyncPartnerJobSource. Dry run: the source unchanged (after the version and
     * state checks). Apply (`confirmation` = the source's code): `nextSyncAt` = now,
     * version + 1, and its `PartnerJobSync` workflow started in the same transaction.
     *
     * Fails with `PartnerJobSourceNotFound` (`partner-job-source-not-found`), `InvalidRequest`
     * (`confirmation-required`, `confirmation-mismatch`), `Conflict`
     * (`version-conflict`, `invalid-state`).
     */
    const requestSync = (input: { readonly sourceId: string; readonly body: SyncPartnerJobSourceRequest }) =>
      Effect.gen(function*() {
        const { body, sourceId } = input
        const found = yield* repo.findById(sourceId)
        if (
          Option.isNone(found) || found.value.version !== body.expectedVersion ||
          !syncableStates.includes(found.value.state)
        ) return yield* refuse(sourceId, body.expectedVersion)
        if (body.dryRun) return found.value
        yield* requireConfirmation(body.confirmation, found.value.code, "the source's code")
        const at = yield* now
        const changed = yield* updateVersioned({
          table: "partner_job_sources",
          id: sourceId,
          expectedVersion: body.expectedVersion,
          set: sql`next_sync_at = ${at}, updated_at = ${at}`,
          fromStates: syncableStates
        })
        if (Option.isNone(changed)) return yield* refuse(sourceId, body.expectedVersion)
        yield* PartnerJobSync.execute({ sourceId, version: changed.value, dueAt: at.toISOString() }, { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
        )
        return yield* repo.findById(sourceId).pipe(Effect.flatMap(Effect.orDie))
      }).pipe(dieOnStorageFailure)

    return { create, list, update, requestSync }
  }),
  dependencies: [PartnerJobsRepo.Default]
}) {}
