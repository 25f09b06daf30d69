/**
 * Reads an ERC-8004 Identity Registry: its `Registered(agentId, agentURI, owner)` and
 * `URIUpdated(agentId, newURI, updatedBy)` logs from the watermark block to the chain's head (in
 * ranges of {@link LogRange} blocks), through the configured chain (layers/Chain.ts) when the network is
 * in `CHAIN_RPC_URLS`, else through the source's `rpcUrl` with viem over the outbound guard. Each
 * agent's latest URI is its registration file (ERC-8004 registration-v1): `http(s)` fetched politely
 * (conditional on the last fetch's validators), `data:` decoded in place; other schemes are skipped.
 * Each token id is one entry (one agent); an `MCP` endpoint in the file becomes an MCP server
 * (`dev.agent-directory/<network>-<registry>-<agentId>`, version 1.0.0, a streamable-http remote). A
 * file that answers 404 or 410, or a URI set to empty, marks the entry vanished. A full read starts
 * again from block 0.
 */
import { Effect, Option } from "effect"
import { createPublicClient, http, parseAbiItem, type PublicClient } from "viem"
import { Chain } from "../../../layers/Chain.js"
import { Outbound } from "../../../layers/Outbound.js"
import type { ServerDetail } from "../Schemas.js"
import { DirectoryNamespace, type Ingest, type IngestItem, slugWords } from "./Ingest.js"
import { FetchFailure, type PoliteFetch } from "./PoliteFetch.js"
import type { KnownEntry } from "./Repo.js"

/** Blocks per `eth_getLogs` request. */
export const LogRange = 10_000n
/** Registration files fetched at a time (per host at most `PerHostConcurrency`). */
export const FileConcurrency = 16
/** Entries written per transaction. */
const BatchSize = 500

const Registered = parseAbiItem("event Registered(uint256 indexed agentId, string agentURI, address indexed owner)")
const UriUpdated = parseAbiItem("event URIUpdated(uint256 indexed agentId, string newURI, address indexed updatedBy)")

const asRecord = (u: unknown): Record<string, unknown> | undefined =>
  typeof u === "object" && u !== null && !Array.isArray(u) ? (u as Record<string, unknown>) : undefined

const truncate = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`)

/** The JSON of a `data:` URI (`data:application/json[;base64],…`), or undefined. */
export const dataUriJson = (uri: string): unknown => {
  const match = /^data:([^,]*),(.*)$/s.exec(uri)
  if (match === null) return undefined
  const text = match[1]!.endsWith(";base64") ? Buffer.from(match[2]!, "base64").toString("utf8") : decodeURIComponent(match[2]!)
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The viem client of `network`: the configured chain's, else one over `rpcUrl` through the outbound guard. */
const clientFor = (network: string, rpcUrl: string | null) =>
  Effect.gen(function*() {
    const chain = yield* Effect.serviceOption(Chain)
    const configured = Option.isSome(chain) ? yield* Effect.option(chain.value.client(network)) : Option.none<PublicClient>()
    if (Option.isSome(configured)) return configured.value
    if (rpcUrl === null) return yield* new FetchFailure({ code: "network-not-configured", status: null })
    const outbound = yield* Outbound
    return createPublicClient({ transport: http(rpcUrl, { fetchFn: outbound.fetch, retryCount: 2 }) }) as PublicClient
  })

/** The entry of one registration file, or undefined when it is not a registration file. */
const itemOf = (o: {
  readonly key: string
  readonly network: string
  readonly registry: string
  readonly file: unknown
  readonly etag: string | null
  readonly lastModified: string | null
  readonly at: Date
}): IngestItem | undefined => {
  const file = asRecord(o.file)
  const name = typeof file?.["name"] === "string" ? file["name"].trim() : ""
  if (file === undefined || name.length === 0) return undefined
  const description = typeof file["description"] === "string" ? file["description"] : ""
  const endpoints = Array.isArray(file["endpoints"]) ? file["endpoints"].map(asRecord) : []
  const mcp = endpoints.find((e) =>
    typeof e?.["name"] === "string" && e["name"].toUpperCase() === "MCP" && typeof e["endpoint"] === "string" &&
    /^https?:\/\/\S+$/.test(e["endpoint"])
  )
  const servers = mcp === undefined ? [] : [{
    server: {
      name: `${DirectoryNamespace}/${slugWords(o.network)}-${o.registry.slice(2, 10).toLowerCase()}-${o.key}`,
      title: truncate(name, 100),
      description: truncate(description.trim() || name, 100),
      version: "1.0.0",
      remotes: [{ type: "streamable-http" as const, url: mcp["endpoint"] as string }]
    } satisfies ServerDetail,
    status: "active" as const,
    statusMessage: null,
    publishedAt: o.at,
    updatedAt: o.at,
    isLatest: true
  }]
  return { key: o.key, name: truncate(name, 200), description: truncate(description, 10_000), servers, etag: o.etag, lastModified: o.lastModified }
}

/** Syncs an ERC8004 source; the new watermark (next block) and counts. Fails with `FetchFailure`. */
export const syncErc8004 = (options: {
  readonly sourceId: string
  readonly network: string
  readonly registryAddress: string
  readonly rpcUrl: string | null
  readonly watermark: string | null
  readonly full: boolean
  readonly at: Date
  readonly fetcher: PoliteFetch
  readonly ingest: Ingest
  readonly known: ReadonlyMap<string, KnownEntry>
}) =>
  Effect.gen(function*() {
    const { at, fetcher, ingest, sourceId } = options
    const client = yield* clientFor(options.network, options.rpcUrl)
    const failed = (code: string) => () => new FetchFailure({ code, status: null })
    const head = yield* Effect.tryPromise({ try: () => client.getBlockNumber({ cacheTime: 0 }), catch: failed("rpc-error") })
    let from = options.full || options.watermark === null ? 0n : BigInt(options.watermark)
    // the latest URI of each agent whose logs are in range, in log order
    const uris = new Map<string, string>()
    while (from <= head) {
      const to = from + LogRange - 1n < head ? from + LogRange - 1n : head
      const logs = yield* Effect.tryPromise({
        try: () => client.getLogs({ address: options.registryAddress as `0x${string}`, events: [Registered, UriUpdated], fromBlock: from, toBlock: to }),
        catch: failed("rpc-error")
      })
      for (const log of logs) {
        const args = log.args as { agentId?: bigint; agentURI?: string; newURI?: string }
        if (args.agentId === undefined) continue
        uris.set(args.agentId.toString(), (log.eventName === "Registered" ? args.agentURI : args.newURI) ?? "")
      }
      from = to + 1n
    }
    const totals = { created: 0, updated: 0, unchanged: 0, vanished: 0, invalid: 0, skipped: 0 }
    const entries = [...uris.entries()]
    for (let i = 0; i < entries.length; i += BatchSize) {
      const present: Array<IngestItem> = []
      const notModified: Array<string> = []
      const vanished: Array<string> = []
      yield* Effect.forEach(entries.slice(i, i + BatchSize), ([key, uri]) =>
        Effect.gen(function*() {
          const base = { key, network: options.network, registry: options.registryAddress, at }
          if (uri === "") return void vanished.push(key)
          if (uri.startsWith("data:")) {
            const item = itemOf({ ...base, file: dataUriJson(uri), etag: null, lastModified: null })
            return void (item === undefined ? totals.invalid++ : present.push(item))
          }
          if (!/^https?:\/\//.test(uri)) return void totals.skipped++
          const known = options.known.get(key)
          const got = yield* Effect.either(fetcher.getJson(uri, known?.state === "PRESENT" ? known : {}))
          if (got._tag === "Left") {
            if (got.left.status === 404 || got.left.status === 410) vanished.push(key)
            else totals.skipped++
            return
          }
          if (got.right._tag === "NotModified") return void notModified.push(key)
          const item = itemOf({ ...base, file: got.right.body, etag: got.right.etag, lastModified: got.right.lastModified })
          if (item === undefined) totals.invalid++
          else present.push(item)
        }), { concurrency: FileConcurrency, discard: true })
      const counts = yield* ingest.write({ sourceId, at, present, notModified, vanished })
      totals.created += counts.created
      totals.updated += counts.updated
      totals.unchanged += counts.unchanged
      totals.vanished += counts.vanished
    }
    return { watermark: (head + 1n).toString(), totals }
  })
