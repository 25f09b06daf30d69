/**
 * The MCP subregistry's reads (MCP Registry API v0.1): Registry_ListServers,
 * Registry_ListServerVersions, Registry_GetServerVersion. Rows become `ServerResponse`s: the stored
 * `server.json`, the registry's official `_meta` and our evidence (`dev.agent-directory/evidence`).
 * Requires `SqlClient`, `Cursor`, `AppConfig`.
 */
import { Effect, Option, Schema } from "effect"
import { AppConfig } from "../../layers/AppConfig.js"
import { Cursor } from "../../layers/Cursor.js"
import { canonicalAgentUrl } from "../identity/CanonicalUrl.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"
import { McpServerNotFound } from "./Errors.js"
import { RegistryRepo, type ServerRow } from "./Repo.js"
import { EvidenceKey, type ListServersQuery, OfficialKey, type ServerDetail, type ServerResponse } from "./Schemas.js"

const Position = Schema.Tuple(Schema.String, Schema.String)

export class Registry extends Effect.Service<Registry>()("agent-directory/Registry", {
  effect: Effect.gen(function*() {
    const repo = yield* RegistryRepo
    const cursors = yield* Cursor
    const config = yield* AppConfig

    const toResponse = (row: ServerRow): ServerResponse => ({
      server: JSON.parse(row.server) as ServerDetail,
      _meta: {
        [OfficialKey]: {
          status: row.status,
          ...(row.statusMessage === null ? {} : { statusMessage: row.statusMessage }),
          statusChangedAt: row.statusChangedAt,
          publishedAt: row.publishedAt,
          updatedAt: row.updatedAt,
          isLatest: row.isLatest
        },
        [EvidenceKey]: {
          agentId: row.agentId,
          profileUrl: canonicalAgentUrl(config.publicBaseUrl, row.agentId),
          verificationState: row.verificationState,
          trust: { feedbackCount: Number(row.feedbackCount ?? 0), averageRatingPpm: row.averageRatingPpm === null ? null : Number(row.averageRatingPpm) },
          health: { probedAt: row.probedAt, ok: row.probeOk, latencyMs: row.latencyMs },
          findingsCount: null,
          source: row.sourceId === null || row.sourceKind === null || row.entryState === null
            ? null
            : { id: row.sourceId, kind: row.sourceKind, state: row.entryState }
        }
      }
    })

    /** Registry_ListServers: one page. Fails with `InvalidCursor`. */
    const list = (query: ListServersQuery) =>
      Effect.gen(function*() {
        const filter = {
          ...(query.search === undefined ? {} : { search: query.search }),
          ...(query.version === undefined ? {} : { version: query.version }),
          ...(query.updated_since === undefined ? {} : { updatedSince: new Date(query.updated_since) }),
          includeDeleted: query.include_deleted
        }
        const page = yield* cursors.page({
          position: Position,
          cursor: query.cursor,
          param: "cursor",
          binding: {
            op: "Registry_ListServers",
            search: query.search ?? null,
            version: query.version ?? null,
            updatedSince: query.updated_since ?? null,
            includeDeleted: query.include_deleted
          },
          limit: query.limit,
          fetch: (after, take) => repo.list(filter, after, take),
          positionOf: (row) => [row.name, row.version] as const
        })
        const servers = page.rows.map(toResponse)
        return {
          servers,
          metadata: { ...(page.nextCursor === null ? {} : { nextCursor: page.nextCursor }), count: servers.length }
        }
      }).pipe(dieOnStorageFailure)

    /** Registry_ListServerVersions. Fails with `McpServerNotFound`. */
    const versions = (name: string, includeDeleted: boolean) =>
      Effect.gen(function*() {
        const rows = yield* repo.versions(name, includeDeleted)
        if (rows.length === 0) return yield* new McpServerNotFound({ detail: "No MCP server has this name." })
        return { servers: rows.map(toResponse), metadata: { count: rows.length } }
      }).pipe(dieOnStorageFailure)

    /** Registry_GetServerVersion. Fails with `McpServerNotFound`. */
    const version = (name: string, version: string, includeDeleted: boolean) =>
      Effect.gen(function*() {
        const [row] = yield* repo.version(name, version, includeDeleted)
        return yield* Option.match(Option.fromNullable(row), {
          onNone: () => Effect.fail(new McpServerNotFound({ detail: "No MCP server has this name and version." })),
          onSome: (r) => Effect.succeed(toResponse(r))
        })
      }).pipe(dieOnStorageFailure)

    return { list, versions, version }
  }),
  dependencies: [RegistryRepo.Default]
}) {}
