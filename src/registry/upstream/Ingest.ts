/**
 * Writes one ingested batch of an upstream source, in one transaction: new entries become agents
 * (UNVERIFIED, listed, with a canonical slug derived from the name and the source), changed entries
 * update their agent, every entry records its source (`upstream_entries`: digest, validators, PRESENT),
 * MCP server versions go to `registry_servers` (the first source of a name keeps it), and vanished
 * entries are marked VANISHED with their server versions `deleted`. Re-ingesting the same content
 * changes nothing but `last_seen_at` (the digest is compared; server rows only change when their
 * document or status does).
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { createHash } from "node:crypto"
import { Ids } from "../../../layers/Ids.js"
import type { ServerDetail, ServerStatus } from "../Schemas.js"
import { type KnownEntry, UpstreamRepo } from "./Repo.js"

/** One version of an MCP server an entry publishes. */
export interface ServerVersionItem {
  readonly server: ServerDetail
  readonly status: ServerStatus
  readonly statusMessage: string | null
  readonly publishedAt: Date
  readonly updatedAt: Date
  readonly isLatest: boolean
}

/** One entry found upstream. */
export interface IngestItem {
  /** The entry's key in its source: an MCP server name, an ERC-8004 token id, a domain. */
  readonly key: string
  readonly name: string
  readonly description: string
  readonly servers: ReadonlyArray<ServerVersionItem>
  readonly etag: string | null
  readonly lastModified: string | null
}

/** What a batch did. */
export interface IngestCounts {
  readonly created: number
  readonly updated: number
  readonly unchanged: number
  readonly vanished: number
}

/** The namespace of the server names the directory gives to its own MCP servers. */
export const DirectoryNamespace = "dev.agent-directory"

/** `name` as slug words: lower-case letters, digits and single dashes (`agent` when none). */
export const slugWords = (name: string) =>
  name.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60).replace(/-+$/, "") || "agent"

/** The canonical slug of the agent of entry `key` of source `sourceId`: its name's words and a hash of both. */
export const entrySlug = (sourceId: string, key: string, name: string) =>
  `${slugWords(name)}-${createHash("sha256").update(`${sourceId}\n${key}`).digest("hex").slice(0, 12)}`

const digestOf = (item: IngestItem) =>
  createHash("sha256").update(JSON.stringify([item.name, item.description, item.servers])).digest("hex")

const chunks = <A>(items: ReadonlyArray<A>, size: number): Array<ReadonlyArray<A>> => {
  const out: Array<ReadonlyArray<A>> = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

const VanishedMessage = "vanished from its upstream source"

/** Bulk writes of ingested batches. Requires `SqlClient`, `Ids`. */
export class Ingest extends Effect.Service<Ingest>()("agent-directory/UpstreamIngest", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* UpstreamRepo
    const ids = yield* Ids

    /** Marks `keys` of the source VANISHED (those still PRESENT) and their server versions deleted. */
    const vanish = (sourceId: string, keys: ReadonlyArray<string>, at: Date) =>
      Effect.gen(function*() {
        if (keys.length === 0) return 0
        let count = 0
        for (const part of chunks(keys, 1000)) {
          const gone = yield* sql<{ agentId: string }>`UPDATE upstream_entries SET state = 'VANISHED', vanished_at = ${at}
            WHERE source_id = ${sourceId} AND external_key IN ${sql.in(part)} AND state = 'PRESENT' RETURNING agent_id AS "agentId"`
          count += gone.length
          if (gone.length > 0) {
            yield* sql`UPDATE registry_servers SET status = 'deleted', status_message = ${VanishedMessage}, status_changed_at = ${at},
                updated_at = ${at} WHERE agent_id IN ${sql.in(gone.map((g) => g.agentId))} AND status <> 'deleted'`
          }
        }
        return count
      })

    /**
     * Writes `present` (found now), `notModified` (keys answered 304: only seen again) and `vanished`
     * (keys gone upstream) of source `sourceId` at `at`, in one transaction.
     */
    const write = (batch: {
      readonly sourceId: string
      readonly at: Date
      readonly present: ReadonlyArray<IngestItem>
      readonly notModified?: ReadonlyArray<string>
      readonly vanished?: ReadonlyArray<string>
    }) =>
      Effect.gen(function*() {
        const { at, sourceId } = batch
        // one item per key (the last wins)
        const byKey = new Map<string, IngestItem>()
        for (const item of batch.present) byKey.set(item.key, item)
        const items = [...byKey.values()]
        const known = new Map<string, KnownEntry>()
        for (const part of chunks(items.map((i) => i.key), 1000)) {
          for (const k of yield* repo.known(sourceId, part)) known.set(k.key, k)
        }
        const created: Array<{ item: IngestItem; agentId: string; digest: string }> = []
        const changed: Array<{ item: IngestItem; agentId: string; digest: string }> = []
        const same: Array<{ item: IngestItem; agentId: string; digest: string }> = []
        for (const item of items) {
          const digest = digestOf(item)
          const k = known.get(item.key)
          if (k === undefined) created.push({ item, agentId: yield* ids.next, digest })
          else if (k.digest !== digest || k.state === "VANISHED") changed.push({ item, agentId: k.agentId, digest })
          else same.push({ item, agentId: k.agentId, digest })
        }
        for (const part of chunks(created, 500)) {
          yield* sql`INSERT INTO agents ${
            sql.insert(part.map(({ agentId, item }) => ({
              id: agentId,
              canonical_slug: entrySlug(sourceId, item.key, item.name),
              name: item.name,
              description: item.description,
              verification_state: "UNVERIFIED",
              listed_at: at,
              state: "ACTIVE",
              created_at: at,
              updated_at: at
            })))
          }`
        }
        for (const part of chunks(changed, 500)) {
          const rows = JSON.stringify(part.map(({ agentId, item }) => ({ id: agentId, name: item.name, description: item.description })))
          yield* sql`UPDATE agents a SET name = v.name, description = v.description, updated_at = ${at}
            FROM jsonb_to_recordset(${rows}::jsonb) AS v(id uuid, name text, description text)
            WHERE a.id = v.id AND (a.name <> v.name OR a.description <> v.description)`
        }
        for (const part of chunks([...created, ...changed, ...same], 500)) {
          yield* sql`INSERT INTO upstream_entries ${
            sql.insert(part.map(({ agentId, digest, item }) => ({
              source_id: sourceId,
              external_key: item.key,
              agent_id: agentId,
              digest,
              etag: item.etag,
              last_modified: item.lastModified,
              state: "PRESENT",
              first_seen_at: at,
              last_seen_at: at
            })))
          } ON CONFLICT (source_id, external_key) DO UPDATE SET digest = EXCLUDED.digest, etag = EXCLUDED.etag,
              last_modified = EXCLUDED.last_modified, state = 'PRESENT', last_seen_at = EXCLUDED.last_seen_at, vanished_at = NULL`
        }
        for (const part of chunks(batch.notModified ?? [], 1000)) {
          yield* sql`UPDATE upstream_entries SET last_seen_at = ${at} WHERE source_id = ${sourceId} AND external_key IN ${sql.in(part)}`
        }
        const servers = [...created, ...changed].flatMap(({ agentId, item }) => item.servers.map((s) => ({ agentId, ...s })))
        for (const part of chunks(servers, 300)) {
          yield* sql`INSERT INTO registry_servers ${
            sql.insert(part.map((s) => ({
              name: s.server.name,
              version: s.server.version,
              agent_id: s.agentId,
              server: JSON.stringify(s.server),
              status: s.status,
              status_message: s.statusMessage,
              status_changed_at: at,
              published_at: s.publishedAt,
              updated_at: s.updatedAt,
              is_latest: s.isLatest
            })))
          } ON CONFLICT (name, version) DO UPDATE SET server = EXCLUDED.server,
              status_changed_at = CASE WHEN registry_servers.status <> EXCLUDED.status THEN EXCLUDED.status_changed_at
                                       ELSE registry_servers.status_changed_at END,
              status = EXCLUDED.status, status_message = EXCLUDED.status_message, is_latest = EXCLUDED.is_latest,
              updated_at = GREATEST(EXCLUDED.updated_at, registry_servers.updated_at)
            WHERE registry_servers.agent_id = EXCLUDED.agent_id
              AND (registry_servers.server <> EXCLUDED.server OR registry_servers.status <> EXCLUDED.status
                   OR registry_servers.is_latest <> EXCLUDED.is_latest)`
        }
        // one latest version per name: a newly latest version unmarks the others
        const latest = servers.filter((s) => s.isLatest).map((s) => ({ name: s.server.name, version: s.server.version, agentId: s.agentId }))
        for (const part of chunks(latest, 500)) {
          yield* sql`UPDATE registry_servers r SET is_latest = false
            FROM jsonb_to_recordset(${JSON.stringify(part)}::jsonb) AS v(name text, version text, "agentId" uuid)
            WHERE r.name = v.name AND r.agent_id = v."agentId" AND r.version <> v.version AND r.is_latest`
        }
        const vanished = yield* vanish(sourceId, batch.vanished ?? [], at)
        return { created: created.length, updated: changed.length, unchanged: same.length + (batch.notModified ?? []).length, vanished } satisfies IngestCounts
      }).pipe(sql.withTransaction)

    /** Marks the PRESENT entries of the source whose key is not in `seen` as vanished (after a full read). */
    const vanishMissing = (sourceId: string, seen: ReadonlySet<string>, at: Date) =>
      Effect.gen(function*() {
        const keys = yield* sql<{ key: string }>`SELECT external_key AS key FROM upstream_entries
          WHERE source_id = ${sourceId} AND state = 'PRESENT'`
        return yield* vanish(sourceId, keys.map((k) => k.key).filter((k) => !seen.has(k)), at)
      }).pipe(sql.withTransaction)

    return { write, vanishMissing }
  }),
  dependencies: [UpstreamRepo.Default]
}) {}
