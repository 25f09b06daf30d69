/**
 * Upstream sources (admin): where the directory ingests agents from, and the bodies of
 * Partners_CreateUpstreamSource and Partners_SyncUpstreamSource.
 *
 * Kinds:
 * - `MCP_REGISTRY`: an MCP registry speaking the read API v0.1 at `baseUrl` (`GET {baseUrl}/v0.1/servers`),
 *   read incrementally with `updated_since` (the last `updatedAt` seen) and cursor pages;
 * - `ERC8004`: an ERC-8004 Identity Registry contract `registryAddress` on the CAIP-2 `network`, read from its
 *   `Registered` and `URIUpdated` logs (through the configured chain when `network` is in `CHAIN_RPC_URLS`, else
 *   through `rpcUrl`), each registration file fetched from its `agentURI`;
 * - `WELL_KNOWN`: `domains` (a host name, read over https, or an `http(s)://host[:port]` origin) whose
 *   `/.well-known/agent-card.json` is read.
 */
import { Schema } from "effect"
import { DateTimeZ, rule, StrictStruct, Uuid, Version, WireString } from "../../../schema/common.js"

/** The kinds of upstream source. */
export const UpstreamKind = Schema.Literal("MCP_REGISTRY", "ERC8004", "WELL_KNOWN")
export type UpstreamKind = typeof UpstreamKind.Type

/** ACTIVE, or DEGRADED after 3 failed syncs in a row (a successful sync restores ACTIVE). */
export const UpstreamState = Schema.Literal("ACTIVE", "DEGRADED")

/** An upstream source as the admin API shows it. */
export const UpstreamSource = Schema.Struct({
  id: Uuid,
  kind: UpstreamKind,
  displayName: Schema.String,
  baseUrl: Schema.NullOr(Schema.String),
  network: Schema.NullOr(Schema.String),
  registryAddress: Schema.NullOr(Schema.String),
  rpcUrl: Schema.NullOr(Schema.String),
  domains: Schema.Array(Schema.String),
  syncIntervalSeconds: Schema.Int,
  state: UpstreamState,
  version: Version,
  /** MCP_REGISTRY: the last upstream `updatedAt` ingested; ERC8004: the next block to read; else null. */
  watermark: Schema.NullOr(Schema.String),
  nextSyncAt: Schema.NullOr(DateTimeZ),
  lastSuccessfulSyncAt: Schema.NullOr(DateTimeZ),
  failureCount: Schema.Int,
  lastFailure: Schema.NullOr(Schema.String),
  /** Entries ingested from it: still present upstream, and vanished (marked, never deleted). */
  entries: Schema.Struct({ present: Schema.Int, vanished: Schema.Int }),
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "UpstreamSource" })
export type UpstreamSource = typeof UpstreamSource.Type

const HttpUrl = WireString(1, 2000).pipe(
  Schema.filter((s) => {
    try {
      const u = new URL(s)
      return (u.protocol === "http:" || u.protocol === "https:") && u.username === "" && u.password === ""
    } catch {
      return false
    }
  }),
  Schema.annotations(rule("must be an http or https URL without credentials"))
)

const Interval = Schema.optionalWith(
  Schema.Int.pipe(Schema.between(60, 604800), Schema.annotations(rule("must be an integer 60-604800 (seconds)"))),
  { default: () => 3600, exact: true }
)
const DisplayName = WireString(1, 200)

/** A domain name (`agents.example.com`) or an origin (`http://127.0.0.1:8080`). */
const Domain = Schema.String.pipe(
  Schema.pattern(/^(?:https?:\/\/)?[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*(?::[0-9]{1,5})?$/),
  Schema.annotations(rule("must be a domain name or an http(s) origin"))
)

/** Body of Partners_CreateUpstreamSource, one shape per kind. */
export const CreateUpstreamSourceRequest = Schema.Union(
  StrictStruct({ kind: Schema.Literal("MCP_REGISTRY"), displayName: DisplayName, baseUrl: HttpUrl, syncIntervalSeconds: Interval }),
  StrictStruct({
    kind: Schema.Literal("ERC8004"),
    displayName: DisplayName,
    network: Schema.String.pipe(Schema.pattern(/^eip155:[1-9][0-9]{0,31}$/), Schema.annotations(rule("must be a CAIP-2 eip155 chain id"))),
    registryAddress: Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/), Schema.annotations(rule("must be a 20-byte 0x address"))),
    rpcUrl: Schema.optionalWith(HttpUrl, { exact: true }),
    syncIntervalSeconds: Interval
  }),
  StrictStruct({
    kind: Schema.Literal("WELL_KNOWN"),
    displayName: DisplayName,
    domains: Schema.Array(Domain).pipe(Schema.minItems(1), Schema.maxItems(1000), Schema.annotations(rule("must be 1-1000 domains"))),
    syncIntervalSeconds: Interval
  })
).annotations({ identifier: "CreateUpstreamSourceRequest" })
export type CreateUpstreamSourceRequest = typeof CreateUpstreamSourceRequest.Type

/**
 * Body of Partners_SyncUpstreamSource: `expectedVersion` (optimistic concurrency) and `full`
 * (default false): read everything again instead of what changed since the watermark; a full sync
 * also marks the entries it no longer finds as vanished.
 */
export const SyncUpstreamSourceRequest = StrictStruct({
  expectedVersion: Version,
  full: Schema.optionalWith(Schema.Boolean, { default: () => false, exact: true })
}).annotations({ identifier: "SyncUpstreamSourceRequest" })
export type SyncUpstreamSourceRequest = typeof SyncUpstreamSourceRequest.Type

/** Path of Partners_SyncUpstreamSource. */
export const UpstreamSourcePath = Schema.Struct({ sourceId: Uuid })
