/**
 * Domain rules of analytics (spec §2.17, §4.3): product-event ingestion and analytics
 * exports of an agent (creation, reading, download).
 */
import { createHash } from "node:crypto"
import { Effect, Either, Option, Redacted, Schema } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Audit } from "../../../layers/Audit.js"
import { canonicalJson } from "../../../layers/CanonicalJson.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { WorkflowEngine } from "@effect/workflow"
import {
  type AnalyticsExport,
  type AnalyticsExportFormat,
  type AnalyticsExportType,
  type EventRejectionCode,
  ContextTokenTtlSeconds,
  type IngestProductEventsResult,
  type IssueContextTokenRequest,
  type IssuedContextToken,
  MaxExportRangeDays,
  ProductEvent
} from "../../../schema/analytics.js"
import { AgentNotFound, RoleRequired } from "../../../schema/errors.js"
import { ExportExpired, ExportNotFound, ExportNotReady, InvalidDateRange } from "./Errors.js"
import { mintContextToken, verifyContextToken } from "./ContextToken.js"
import { downloadTokenOf, exportIdOfDownloadToken } from "./DownloadToken.js"
import { AnalyticsExportWorkflow, ExportRetentionMs } from "./ExportWorkflow.js"
import { AnalyticsRepo } from "./Repo.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { can } from "../../../schema/roles.js"

/** How far `occurredAt` may lie before the server's now (ms, 7 days); older → TIMESTAMP_SKEW. */
export const MaxEventAgeMs = 7 * 24 * 3600 * 1000
/** How far `occurredAt` may lie after the server's now (ms, 5 minutes: client clock drift); later → TIMESTAMP_SKEW. */
export const MaxEventLeadMs = 5 * 60 * 1000

const decodeEvent = Schema.decodeUnknownEither(ProductEvent)
const decodeEventId = Schema.decodeUnknownOption(ProductEvent.fields.eventId)

const dayMs = 86_400_000

export class Analytics extends Effect.Service<Analytics>()("agent-directory/Analytics", {
  effect: Effect.gen(function*() {
    const repo = yield* AnalyticsRepo
    const ids = yield* Ids
    const audit = yield* Audit
    const engine = yield* WorkflowEngine.WorkflowEngine
    const config = yield* AppConfig
    const contextKey = Redacted.value(config.keys.analyticsContext)
    const downloadKey = Redacted.value(config.keys.analyticsDownload)


    /**
     * Social_IngestProductEvent (spec §4.3): verifies the context token, then each event
     * on its own, in order: INVALID_EVENT (not a {@link ProductEvent}, or no agent: the
     * event names none and the token has none), TIMESTAMP_SKEW (occurredAt more than
     * {@link MaxEventAgeMs} before or {@link MaxEventLeadMs} after now), CONSENT_REQUIRED
     * (the name's category is not in the token's consent), SUBJECT_UNAVAILABLE (the agent
     * does not exist or is not listed), then stored: a known eventId with the same content
     * is accepted as a duplicate, with other content rejected as EVENT_ID_CONFLICT.
     * Runs in the caller's transaction; the receipt is returned once it commits.
     * Fails with `InvalidContextToken` (`invalid-context-token`) or `ContextTokenExpired` (`context-token-expired`).
     */
    const ingest = (input: { readonly contextToken: string; readonly events: ReadonlyArray<unknown> }) =>
      Effect.gen(function*() {
        const at = yield* now
        const claims = yield* verifyContextToken(contextKey, input.contextToken, at)
        const receiptId = yield* ids.next
        const decoded = input.events.map((raw) => decodeEvent(raw))
        const agentIds = decoded.flatMap((d) =>
          Either.isRight(d) ? [d.right.entityPublicId ?? claims.agent].filter((a): a is string => a !== null) : []
        )
        const available = yield* repo.publicAgents([...new Set(agentIds)], at)
        const accepted: Array<IngestProductEventsResult["accepted"][number]> = []
        const rejected: Array<IngestProductEventsResult["rejected"][number]> = []
        for (const [index, d] of decoded.entries()) {
          const reject = (eventId: string | null, code: EventRejectionCode) => rejected.push({ index, eventId, code })
          if (Either.isLeft(d)) {
            const raw = input.events[index]
            const eventId = typeof raw === "object" && raw !== null && "eventId" in raw ? decodeEventId(raw.eventId) : Option.none()
            reject(Option.getOrNull(eventId), "INVALID_EVENT")
            continue
          }
          const event = d.right
          const agentId = event.entityPublicId ?? claims.agent
          const category = event.name.split(".")[0]!
          const skew = event.occurredAt.getTime() - at.getTime()
          if (agentId === null) reject(event.eventId, "INVALID_EVENT")
          else if (skew > MaxEventLeadMs || -skew > MaxEventAgeMs) reject(event.eventId, "TIMESTAMP_SKEW")
          else if (!claims.consent.includes(category)) reject(event.eventId, "CONSENT_REQUIRED")
          else if (!available.has(agentId)) reject(event.eventId, "SUBJECT_UNAVAILABLE")
          else {
            const content = { agentId, name: event.name, occurredAt: event.occurredAt.toISOString(), properties: event.properties }
            const digest = createHash("sha256").update(canonicalJson(content)).digest("hex")
            const stored = yield* repo.insertEvent({
              eventId: event.eventId,
              agentId,
              name: event.name,
              category,
              occurredAt: event.occurredAt,
              properties: event.properties,
              subject: claims.sub,
              digest,
              receiptId,
              at
            })
            if (stored.digest !== digest) reject(event.eventId, "EVENT_ID_CONFLICT")
            else accepted.push({ index, eventId: event.eventId, duplicate: !stored.inserted })
          }
        }
        return { accepted, rejected, receipt: { id: receiptId, durable: true as const, receivedAt: at } }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /**
     * Social_IssueAnalyticsContextToken: a context token for the visitor (given, or a new
     * opaque id), the agent (when given, it must be listed now: else `AgentNotFound`) and the
     * consented categories (deduplicated), valid {@link ContextTokenTtlSeconds} seconds.
     * Stores nothing.
     */
    const issueContextToken = (body: IssueContextTokenRequest) =>
      Effect.gen(function*() {
        const at = yield* now
        const agent = body.agentPublicId === null ? null : body.agentPublicId.toLowerCase()
        if (agent !== null && !(yield* repo.publicAgents([agent], at)).has(agent)) {
          return yield* new AgentNotFound({ detail: `No listed agent ${agent}.` })
        }
        const visitor = body.visitor ?? `v-${yield* ids.next}`
        const consent = [...new Set(body.consent)]
        const exp = Math.floor(at.getTime() / 1000) + ContextTokenTtlSeconds
        const contextToken = mintContextToken(contextKey, { sub: visitor, agent, consent, exp })
        return { contextToken, expiresAt: new Date(exp * 1000), agentPublicId: agent, consent, visitor } satisfies IssuedContextToken
      }).pipe(dieOnStorageFailure)

    /** The agent's operating workspace, when the account may export its analytics; else NotFound / Forbidden. */
    const authorize = (agentId: string, accountId: string) =>
      Effect.gen(function*() {
        const access = yield* repo.agentAccess(agentId, accountId)
        if (Option.isNone(access) || access.value.role === null) {
          return yield* new AgentNotFound({ detail: `No agent ${agentId} operated by your workspaces.` })
        }
        if (!can(access.value.role, "analytics.export")) {
          return yield* new RoleRequired({ detail: "Exports need the OWNER, ADMIN, EDITOR, OPERATOR or ANALYST role." })
        }
        return access.value.workspaceId
      })

    const present = (e: AnalyticsExport, at: Date): AnalyticsExport => {
      const expired = e.state === "AVAILABLE" && e.expiresAt.getTime() <= at.getTime()
      return {
        ...e,
        state: expired ? "EXPIRED" : e.state,
        downloadToken: e.state === "AVAILABLE" && !expired ? downloadTokenOf(downloadKey, e.id) : null
      }
    }

    /**
     * Social_CreateAnalyticsExport (spec §2.17, §4.3): records the export REQUESTED and
     * starts its build workflow in the same transaction. `from` ≤ `to` and at most
     * {@link MaxExportRangeDays} days counted inclusively, else `InvalidRequest` `invalid-date-range`.
     * Fails with `NotFound` `agent-not-found`, `Forbidden` `role-required`.
     */
    const createExport = (input: {
      readonly agentId: string
      readonly accountId: string
      readonly exportType: AnalyticsExportType
      readonly from: string
      readonly to: string
      readonly format: AnalyticsExportFormat
    }) =>
      Effect.gen(function*() {
        const from = Date.parse(`${input.from}T00:00:00Z`)
        const to = Date.parse(`${input.to}T00:00:00Z`)
        // a pattern-valid date such as 2026-02-31 does not exist
        const real = (s: string, t: number) => !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === s
        if (!real(input.from, from) || !real(input.to, to) || from > to || (to - from) / dayMs + 1 > MaxExportRangeDays) {
          return yield* new InvalidDateRange({
            detail: `The range must be real dates with from <= to, at most ${MaxExportRangeDays} days.`,
            errors: [{ in: "body", pointer: "/to", detail: `must be a date on or after from, at most ${MaxExportRangeDays} days later` }]
          })
        }
        const workspaceId = yield* authorize(input.agentId, input.accountId)
        const at = yield* now
        const id = yield* ids.next
        yield* repo.insertExport({ ...input, id, at, expiresAt: new Date(at.getTime() + ExportRetentionMs) })
        yield* audit.record({
          workspaceId,
          actorAccountId: input.accountId,
          action: "analytics_export.created",
          target: { type: "analytics_export", id },
          details: {
            agentId: input.agentId,
            exportType: input.exportType,
            from: input.from,
            to: input.to,
            format: input.format
          }
        })
        // in this transaction: a rolled-back request starts no build (layers/Engine.ts)
        yield* AnalyticsExportWorkflow.execute({ exportId: id }, { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
        )
        const created = yield* repo.findExport(id)
        return present(Option.getOrThrow(created), at)
      }).pipe(dieOnStorageFailure)

    /** Social_GetAnalyticsExport (our extension): an export of the agent. NotFound / Forbidden as {@link createExport}. */
    const getExport = (input: { readonly agentId: string; readonly exportId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        yield* authorize(input.agentId, input.accountId)
        const found = yield* repo.findExport(input.exportId)
        if (Option.isNone(found) || found.value.entityPublicId !== input.agentId) {
          return yield* new ExportNotFound({ detail: `No export ${input.exportId} of this agent.` })
        }
        return present(found.value, yield* now)
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    /**
     * Social_DownloadAnalyticsExport (our extension): the file of the export a download
     * token names. Fails with `NotFound` `export-not-found` (token not ours),
     * `Conflict` `export-not-ready` (not AVAILABLE), `ChallengeExpired` `export-expired`.
     */
    const download = (token: string) =>
      Effect.gen(function*() {
        const notFound = new ExportNotFound({ detail: "No export for this download token." })
        const exportId = exportIdOfDownloadToken(downloadKey, token)
        if (exportId === null) return yield* notFound
        const found = yield* repo.exportFile(exportId)
        if (Option.isNone(found)) return yield* notFound
        const file = found.value
        // expired whether the workflow has already moved it to EXPIRED (file removed) or not yet
        if (file.state === "EXPIRED" || (file.state === "AVAILABLE" && file.expiresAt.getTime() <= (yield* now).getTime())) {
          return yield* new ExportExpired({ detail: "The export's file has expired; request a new export." })
        }
        if (file.state !== "AVAILABLE" || file.file === null) {
          return yield* new ExportNotReady({ detail: `The export is ${file.state}, not AVAILABLE.` })
        }
        return { exportId, format: file.format as AnalyticsExportFormat, content: file.file }
      }).pipe(Effect.catchTag("SqlError", Effect.die))

    return { ingest, issueContextToken, createExport, getExport, download }
  }),
  dependencies: [AnalyticsRepo.Default]
}) {}
