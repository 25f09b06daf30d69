/**
 * The MCP Registry read API v0.1 wire shapes (the registry's `docs/reference/api/openapi.yaml`,
 * version 2025-12-01, components `ServerList`, `ServerResponse`, `ServerDetail`; and its
 * `server.json` schema): a server is a `server.json` document (`ServerDetail`) and each answer wraps
 * it with registry-managed `_meta`. Members the registry defines and we do not restate
 * (`packages[]` entries, transport headers and variables, publisher `_meta`) pass through unchanged:
 * the structs keep unknown keys (an index signature), so an upstream document is served as ingested.
 *
 * Our own evidence about the server goes under `_meta["dev.agent-directory/evidence"]`
 * ({@link Evidence}); the official block `io.modelcontextprotocol.registry/official` carries the
 * lifecycle status and timestamps, as the registry defines it.
 */
import { Schema } from "effect"
import { AnyJson, DateTimeZ, rule, WireString } from "../../schema/common.js"

/** Any further JSON members (kept as they are). */
const Rest = Schema.Record({ key: Schema.String, value: AnyJson })

/** The reverse-DNS key of our evidence in a server's `_meta`. */
export const EvidenceKey = "dev.agent-directory/evidence"
/** The reverse-DNS key of the registry-managed metadata (the official registry's). */
export const OfficialKey = "io.modelcontextprotocol.registry/official"

/** `Repository`: where the server's source is (`url`, `source`: github, gitlab, …). */
export const Repository = Schema.Struct(
  { url: Schema.String, source: Schema.String, id: Schema.optional(Schema.String), subfolder: Schema.optional(Schema.String) },
  Rest
)

/** A remote transport (`RemoteTransport`): `streamable-http` or `sse` at `url`. */
export const RemoteTransport = Schema.Struct(
  { type: Schema.Literal("streamable-http", "sse"), url: Schema.String },
  Rest
)

/** `ServerDetail`: one version of an MCP server (`server.json`). */
export const ServerDetail = Schema.Struct(
  {
    name: Schema.String.pipe(Schema.minLength(3), Schema.maxLength(200), Schema.pattern(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/)),
    description: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
    version: Schema.String.pipe(Schema.maxLength(255)),
    title: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100))),
    repository: Schema.optional(Repository),
    websiteUrl: Schema.optional(Schema.String),
    icons: Schema.optional(Schema.Array(Rest)),
    $schema: Schema.optional(Schema.String),
    packages: Schema.optional(Schema.Array(Rest)),
    remotes: Schema.optional(Schema.Array(RemoteTransport)),
    _meta: Schema.optional(Rest)
  },
  Rest
).annotations({ identifier: "McpServerDetail", description: "server.json: one version of an MCP server (MCP Registry v0.1)" })
export type ServerDetail = typeof ServerDetail.Type

/** The registry lifecycle status of a server version. */
export const ServerStatus = Schema.Literal("active", "deprecated", "deleted")
export type ServerStatus = typeof ServerStatus.Type

/** `_meta["io.modelcontextprotocol.registry/official"]`. */
export const OfficialMeta = Schema.Struct({
  status: ServerStatus,
  statusMessage: Schema.optional(Schema.String.pipe(Schema.maxLength(500))),
  statusChangedAt: DateTimeZ,
  publishedAt: DateTimeZ,
  updatedAt: DateTimeZ,
  isLatest: Schema.Boolean
})

/**
 * `_meta["dev.agent-directory/evidence"]`: what the directory knows about the server's agent.
 * `agentId` (uuid) and `profileUrl`; `verificationState` (UNVERIFIED until proven); `trust`
 * (published feedback: count, mean rating in ppm or null); `health` (the latest endpoint probe, or
 * nulls when never probed); `findingsCount` (tool-safety findings, null when not assessed);
 * `source` (the upstream source it was ingested from, with `state` PRESENT or VANISHED; null for
 * the directory's own agents).
 */
export const Evidence = Schema.Struct({
  agentId: Schema.String,
  profileUrl: Schema.String,
  verificationState: Schema.String,
  trust: Schema.Struct({ feedbackCount: Schema.Number, averageRatingPpm: Schema.NullOr(Schema.Number) }),
  health: Schema.Struct({ probedAt: Schema.NullOr(DateTimeZ), ok: Schema.NullOr(Schema.Boolean), latencyMs: Schema.NullOr(Schema.Number) }),
  findingsCount: Schema.NullOr(Schema.Number),
  source: Schema.NullOr(Schema.Struct({
    id: Schema.String,
    kind: Schema.Literal("MCP_REGISTRY", "ERC8004", "WELL_KNOWN"),
    state: Schema.Literal("PRESENT", "VANISHED")
  }))
})
export type Evidence = typeof Evidence.Type

/** `ServerResponse`: a server version with its registry metadata and our evidence. */
export const ServerResponse = Schema.Struct({
  server: ServerDetail,
  _meta: Schema.Struct({ [OfficialKey]: OfficialMeta, [EvidenceKey]: Evidence })
}).annotations({ identifier: "McpServerResponse" })
export type ServerResponse = typeof ServerResponse.Type

/** `ServerList`: a page of server versions; `metadata.nextCursor` is absent on the last page. */
export const ServerList = Schema.Struct({
  servers: Schema.Array(ServerResponse),
  metadata: Schema.Struct({ nextCursor: Schema.optional(Schema.String), count: Schema.Number })
}).annotations({ identifier: "McpServerList" })
export type ServerList = typeof ServerList.Type

/** A boolean query flag: `true` or `false`. */
const QueryBoolean = Schema.optionalWith(
  Schema.Literal("true", "false").annotations(rule("must be true or false")).pipe(
    Schema.transform(Schema.Boolean, { strict: true, decode: (s) => s === "true", encode: (b) => (b ? "true" : "false") })
  ),
  { default: () => false, exact: true }
)

/** An integer 1-100 in decimal digits (default 30). */
const Limit = Schema.optionalWith(
  Schema.String.pipe(Schema.pattern(/^(?:[1-9][0-9]?|100)$/), Schema.annotations({
    ...rule("must be an integer 1-100 in decimal digits"),
    jsonSchema: { type: "integer", minimum: 1, maximum: 100, default: 30 }
  })).pipe(Schema.compose(Schema.NumberFromString)),
  { default: () => 30, exact: true }
)

/**
 * Query of Registry_ListServers: `search` (substring of the name, case-insensitive, 1-200),
 * `cursor` (from `metadata.nextCursor`), `limit` 1-100 (default 30), `updated_since` (RFC 3339;
 * includes deleted versions), `version` (`latest` or an exact version), `include_deleted`.
 */
export const ListServersQuery = Schema.Struct({
  search: Schema.optionalWith(WireString(1, 200), { exact: true }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true }),
  limit: Limit,
  updated_since: Schema.optionalWith(
    Schema.String.pipe(
      Schema.filter((s) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s))),
      Schema.annotations({ ...rule("must be an RFC 3339 date-time"), jsonSchema: { type: "string", format: "date-time" } })
    ),
    { exact: true }
  ),
  version: Schema.optionalWith(WireString(1, 255), { exact: true }),
  include_deleted: QueryBoolean
})
export type ListServersQuery = typeof ListServersQuery.Type

/** Query of the versions reads: `include_deleted` (default false). */
export const IncludeDeletedQuery = Schema.Struct({ include_deleted: QueryBoolean })

/** Path of Registry_ListServerVersions: the server name (URL-encoded, `com.example%2Fmy-server`). */
export const ServerNamePath = Schema.Struct({ serverName: WireString(3, 200) })
/** Path of Registry_GetServerVersion: name and version (`latest` for the latest). */
export const ServerVersionPath = Schema.Struct({ serverName: WireString(3, 200), version: WireString(1, 255) })
