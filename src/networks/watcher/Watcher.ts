/**
 * The block watcher of one EVM network (spec: chains are watched by one watcher per network,
 * block cursor, confirmation depth, reorg detection by block hash). One {@link WatcherShape.tick}:
 *
 * 1. The first tick of a network starts at the node's head (its cursor row, `chain_cursors`,
 *    and that block's `chain_blocks` row), never at genesis.
 * 2. The cursor's block is checked against the node (a reorg at the tip); then blocks from
 *    cursor+1 to the head, at most {@link MaxBlocksPerTick}, in order. A block whose parent hash
 *    is not the stored hash of the block before it is a reorg: the watcher walks back to the
 *    common ancestor (stored hashes compared with the node's), and in one transaction moves
 *    the intents OBSERVED in the dropped blocks back to SUBMITTED (their handlers called with
 *    SUBMITTED), deletes the CHAIN_OBSERVATION activity of those blocks and their `chain_blocks`
 *    rows and moves the cursor back; the new canonical blocks are then processed as new ones.
 * 3. Each block is processed in ONE transaction with its `chain_blocks` row and the cursor
 *    advance (which only moves from the block's parent, so two runners never both apply it):
 *    SUBMITTED intents whose hash is in it → OBSERVED (receipt status success) or FAILED
 *    (`reverted`); OBSERVED intents whose block has reached the network's confirmation depth
 *    (`block - intentBlock + 1 >= confirmations`) → CONFIRMED; every move calls the purpose's
 *    handler (`IntentOutcomes`) in that transaction with the receipt; and a CHAIN_OBSERVATION
 *    activity item for each transaction from or to a watched address (`chain.transaction`) and
 *    each ERC-721 `Transfer` of a watched registry token (`chain.token_transfer`), deduplicated
 *    by `<network>:<txHash>[:<logIndex>]`. The last {@link KeptBlocks} blocks are kept.
 * 4. SUBMITTED intents that no block matched (recorded after their block was processed) are
 *    looked up by receipt, at most {@link SweepPerTick} a tick, and observed when their block is
 *    the stored canonical one.
 *
 * RPC reads happen outside the transactions; a failing node fails the tick
 * ({@link WatcherRpcError}), which the runner retries on its next poll.
 */
import { SqlClient } from "@effect/sql"
import { Data, Effect } from "effect"
import { type Block, type Hash, parseAbi, parseEventLogs, type PublicClient, type Transaction, type TransactionReceipt } from "viem"
import { Chain, type NetworkInfo } from "../../../layers/Chain.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { IntentOutcomes, transitionIntent } from "../../../layers/TransactionIntents.js"
import type { TransactionIntentState } from "../../../schema/transactionIntents.js"
import { intentRows, type WatchedIntent } from "./IntentRows.js"
import { recordObservations } from "./Observations.js"
import { loadWatched, type WatchedSet } from "./Watched.js"

/** Most blocks one tick processes (the rest wait for the next tick, which then follows at once). */
export const MaxBlocksPerTick = 100
/** Recent blocks kept in `chain_blocks` per network (the deepest reorg the watcher can undo). */
export const KeptBlocks = 256
/** Most unmatched SUBMITTED intents looked up by receipt per tick. */
export const SweepPerTick = 50

/** The network's JSON-RPC endpoint failed or answered something unusable. */
export class WatcherRpcError extends Data.TaggedError("WatcherRpcError")<{ readonly network: string; readonly detail: string }> {}

/** What one tick did. */
export interface TickResult {
  /** Blocks processed. */
  readonly blocks: number
  /** Reorgs undone. */
  readonly reorgs: number
  /** Whether blocks are left for the next tick (the batch was full). */
  readonly behind: boolean
  /** The cursor after the tick. */
  readonly cursor: bigint
}

/** The watcher of one network. */
export interface WatcherShape {
  readonly network: NetworkInfo
  /** One round (see the module's description). */
  readonly tick: Effect.Effect<TickResult, WatcherRpcError, SqlClient.SqlClient | Ids>
}

const erc721 = parseAbi(["event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)"])

const short = (address: string) => `${address.slice(0, 6)}…${address.slice(-4)}`

type FullBlock = Block<bigint, true, "latest">

/** Builds the watcher of `networkId` (a configured `eip155` network). */
export const makeWatcher = (networkId: string) =>
  Effect.gen(function*() {
    const chain = yield* Chain
    const outcomes = yield* IntentOutcomes
    const network = yield* chain.network(networkId)
    const client: PublicClient = yield* chain.client(networkId)
    const rows = intentRows

    const rpc = <A>(what: string, f: () => Promise<A>) =>
      Effect.tryPromise({
        try: f,
        catch: (e) => new WatcherRpcError({ network: networkId, detail: `${what}: ${e instanceof Error ? e.message.split("\n")[0] : String(e)}` })
      })
    const blockAt = (n: bigint) => rpc(`block ${n}`, () => client.getBlock({ blockNumber: n, includeTransactions: true }) as Promise<FullBlock>)
    const hashAt = (n: bigint) => rpc(`block ${n}`, () => client.getBlock({ blockNumber: n })).pipe(Effect.map((b) => b.hash))
    const receiptOf = (hash: Hash) =>
      rpc(`receipt ${hash}`, () => client.getTransactionReceipt({ hash })).pipe(
        Effect.map((r): TransactionReceipt | undefined => r),
        Effect.catchIf((e) => /not be found|not found/i.test(e.detail), () => Effect.succeed(undefined))
      )

    /** Moves an intent (if still in `from`) and calls its purpose's handler, in the caller's transaction. */
    const moveIntent = (
      id: string,
      from: TransactionIntentState,
      to: TransactionIntentState,
      receipt: TransactionReceipt | null,
      failureCode?: string
    ) =>
      transitionIntent({
        id,
        from: [from],
        to,
        receipt,
        changes: {
          ...(to === "SUBMITTED"
            ? { blockNumber: null, blockHash: null }
            : receipt === null
            ? {}
            : { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash }),
          ...(failureCode === undefined ? {} : { failureCode })
        }
      }).pipe(Effect.provideService(IntentOutcomes, outcomes))

    const cursorRow = Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql<{ blockNumber: string; blockHash: string }>`SELECT block_number::text AS "blockNumber", block_hash AS "blockHash"
        FROM chain_cursors WHERE network = ${networkId}`).pipe(
        Effect.map((r) => r[0] === undefined ? undefined : { number: BigInt(r[0].blockNumber), hash: r[0].blockHash }),
        Effect.orDie
      )

    /** Starts the network at `block` (its first tick). */
    const start = (block: { number: bigint; hash: Hash; parentHash: Hash }) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const at = yield* now
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO chain_cursors (network, block_number, block_hash, updated_at)
                     VALUES (${networkId}, ${block.number.toString()}::numeric, ${block.hash}, ${at}) ON CONFLICT (network) DO NOTHING`
          yield* sql`INSERT INTO chain_blocks (network, block_number, block_hash, parent_hash, seen_at)
                     VALUES (${networkId}, ${block.number.toString()}::numeric, ${block.hash}, ${block.parentHash}, ${at})
                     ON CONFLICT (network, block_number) DO NOTHING`
        }))
      }).pipe(Effect.orDie)

    /**
     * Undoes the blocks above the common ancestor of the stored chain and the node's: answers
     * the new cursor.
     */
    const undoReorg = (cursor: { number: bigint; hash: string }, head: bigint) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const stored = yield* sql<{ blockNumber: string; blockHash: string }>`
          SELECT block_number::text AS "blockNumber", block_hash AS "blockHash" FROM chain_blocks
           WHERE network = ${networkId} AND block_number <= ${cursor.number.toString()}::numeric
           ORDER BY block_number DESC LIMIT ${KeptBlocks}`.pipe(Effect.orDie)
        let ancestor: { number: bigint; hash: string } | undefined
        for (const row of stored) {
          const n = BigInt(row.blockNumber)
          if (n > head) continue // the node's chain is shorter now
          const hash = yield* hashAt(n)
          if (hash === row.blockHash) {
            ancestor = { number: n, hash }
            break
          }
        }
        if (ancestor === undefined) {
          // deeper than the kept blocks: restart below the oldest one the watcher knew
          const oldest = stored.length === 0 ? cursor.number : BigInt(stored[stored.length - 1]!.blockNumber)
          const below = oldest > 0n ? oldest - 1n : 0n
          const n = below < head ? below : head
          ancestor = { number: n, hash: yield* hashAt(n) }
        }
        const base = ancestor
        const at = yield* now
        yield* sql.withTransaction(Effect.gen(function*() {
          const r = yield* rows
          for (const dropped of yield* r.observedAbove(networkId, base.number)) {
            yield* moveIntent(dropped.intent.id, "OBSERVED", "SUBMITTED", null)
          }
          yield* sql`DELETE FROM agent_activity WHERE source_kind = 'CHAIN_OBSERVATION'
                       AND network_id = (SELECT id FROM networks WHERE caip2 = ${networkId})
                       AND chain_block_number > ${base.number.toString()}::numeric`
          yield* sql`DELETE FROM chain_blocks WHERE network = ${networkId} AND block_number > ${base.number.toString()}::numeric`
          yield* sql`INSERT INTO chain_blocks (network, block_number, block_hash, parent_hash, seen_at)
                     VALUES (${networkId}, ${base.number.toString()}::numeric, ${base.hash}, ${base.hash}, ${at})
                     ON CONFLICT (network, block_number) DO NOTHING`
          yield* sql`UPDATE chain_cursors SET block_number = ${base.number.toString()}::numeric, block_hash = ${base.hash}, updated_at = ${at}
                     WHERE network = ${networkId}`
        })).pipe(Effect.orDie)
        yield* Effect.logWarning("chain watcher: reorg undone").pipe(
          Effect.annotateLogs({ network: networkId, from: cursor.number.toString(), ancestor: base.number.toString() })
        )
        return base
      })

    /** The activity items of one block for the watched set. */
    const observations = (block: FullBlock, watched: WatchedSet) =>
      Effect.gen(function*() {
        const items: Array<{ agentId: string; key: string; dedupe: string; hash: string; summary: string }> = []
        if (watched.addresses.size > 0) {
          for (const tx of block.transactions as ReadonlyArray<Transaction>) {
            const agents = new Set<string>()
            for (const a of watched.addresses.get(tx.from.toLowerCase()) ?? []) agents.add(a)
            if (tx.to) for (const a of watched.addresses.get(tx.to.toLowerCase()) ?? []) agents.add(a)
            for (const agentId of agents) {
              items.push({
                agentId,
                key: "chain.transaction",
                dedupe: `${networkId}:${tx.hash}`,
                hash: tx.hash,
                summary: `A transaction from ${short(tx.from)}${tx.to ? ` to ${short(tx.to)}` : ""} was included in block ${block.number} on ${network.displayName}.`
              })
            }
          }
        }
        if (watched.tokens.size > 0 && block.transactions.length > 0) {
          const logs = yield* rpc(`logs of block ${block.number}`, () =>
            client.getLogs({ blockHash: block.hash, address: [...watched.tokens.keys()] as Array<`0x${string}`>, event: erc721[0] }))
          const transfers = parseEventLogs({ abi: erc721, logs: logs.filter((l) => l.topics.length === 4), strict: true })
          for (const log of transfers) {
            const agents = watched.tokens.get(log.address.toLowerCase())?.get(log.args.tokenId.toString()) ?? []
            for (const agentId of agents) {
              items.push({
                agentId,
                key: "chain.token_transfer",
                dedupe: `${networkId}:${log.transactionHash}:${log.logIndex}`,
                hash: log.transactionHash,
                summary: `Registry token #${log.args.tokenId} moved from ${short(log.args.from)} to ${short(log.args.to)} in block ${block.number} on ${network.displayName}.`
              })
            }
          }
        }
        return items
      })

    /** Processes one canonical block whose parent is the cursor. */
    const processBlock = (block: FullBlock, pending: Map<string, WatchedIntent>, watched: WatchedSet) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const r = yield* rows
        const number = block.number
        // RPC reads first: receipts of the intents in the block, of those reaching their depth, the observations
        const included: Array<{ watched: WatchedIntent; receipt: TransactionReceipt }> = []
        if (pending.size > 0) {
          for (const tx of block.transactions as ReadonlyArray<Transaction>) {
            const w = pending.get(tx.hash.toLowerCase())
            if (w === undefined) continue
            const receipt = yield* receiptOf(tx.hash)
            if (receipt !== undefined && receipt.blockHash === block.hash) included.push({ watched: w, receipt })
          }
        }
        const depthReached = number - BigInt(network.confirmations) + 1n
        const confirming: Array<{ id: string; receipt: TransactionReceipt }> = []
        for (const w of yield* r.observedUpTo(networkId, depthReached)) {
          const receipt = yield* receiptOf(w.intent.transactionHash as Hash)
          if (receipt !== undefined) confirming.push({ id: w.intent.id, receipt })
        }
        for (const i of included) {
          if (i.receipt.status === "success" && number <= depthReached) confirming.push({ id: i.watched.intent.id, receipt: i.receipt })
        }
        const items = yield* observations(block, watched)
        const at = yield* now
        const occurredAt = new Date(Number(block.timestamp) * 1000)
        const advanced = yield* sql.withTransaction(Effect.gen(function*() {
          const moved = yield* sql<{ network: string }>`UPDATE chain_cursors
              SET block_number = ${number.toString()}::numeric, block_hash = ${block.hash}, updated_at = ${at}
            WHERE network = ${networkId} AND block_number = ${(number - 1n).toString()}::numeric AND block_hash = ${block.parentHash}
            RETURNING network`
          if (moved.length === 0) return false
          yield* sql`INSERT INTO chain_blocks (network, block_number, block_hash, parent_hash, seen_at)
                     VALUES (${networkId}, ${number.toString()}::numeric, ${block.hash}, ${block.parentHash}, ${at})
                     ON CONFLICT (network, block_number) DO UPDATE SET block_hash = excluded.block_hash,
                       parent_hash = excluded.parent_hash, seen_at = excluded.seen_at`
          yield* sql`DELETE FROM chain_blocks WHERE network = ${networkId}
                       AND block_number <= ${(number - BigInt(KeptBlocks)).toString()}::numeric`
          for (const i of included) {
            if (i.receipt.status === "success") yield* moveIntent(i.watched.intent.id, "SUBMITTED", "OBSERVED", i.receipt)
            else yield* moveIntent(i.watched.intent.id, "SUBMITTED", "FAILED", i.receipt, "reverted")
          }
          for (const c of confirming) yield* moveIntent(c.id, "OBSERVED", "CONFIRMED", c.receipt)
          yield* recordObservations(items.map((item) => ({
            agentId: item.agentId,
            activityKey: item.key,
            dedupeKey: item.dedupe,
            summary: item.summary,
            transactionReference: item.hash,
            explorerUrl: chain.transactionUrl(networkId, item.hash),
            occurredAt
          })), networkId, number)
          return true
        })).pipe(Effect.orDie)
        if (advanced) for (const i of included) pending.delete(i.watched.intent.transactionHash!.toLowerCase())
        return advanced
      })

    /** Observes SUBMITTED intents no processed block matched (recorded after their block was processed). */
    const sweep = (cursor: bigint, pending: Map<string, WatchedIntent>) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        for (const w of [...pending.values()].slice(0, SweepPerTick)) {
          const receipt = yield* receiptOf(w.intent.transactionHash as Hash)
          if (receipt === undefined || receipt.blockNumber > cursor) continue
          yield* sql.withTransaction(Effect.gen(function*() {
            const [stored] = yield* sql<{ blockHash: string }>`SELECT block_hash AS "blockHash" FROM chain_blocks
              WHERE network = ${networkId} AND block_number = ${receipt.blockNumber.toString()}::numeric`
            // a block the watcher no longer keeps (or never saw) is trusted only below the kept window
            if (stored !== undefined && stored.blockHash !== receipt.blockHash) return
            if (receipt.status !== "success") return yield* moveIntent(w.intent.id, "SUBMITTED", "FAILED", receipt, "reverted")
            yield* moveIntent(w.intent.id, "SUBMITTED", "OBSERVED", receipt)
            if (cursor - receipt.blockNumber + 1n >= BigInt(network.confirmations)) {
              yield* moveIntent(w.intent.id, "OBSERVED", "CONFIRMED", receipt)
            }
          })).pipe(Effect.orDie)
        }
      })

    const tick: WatcherShape["tick"] = Effect.gen(function*() {
      const head = yield* rpc("head", () => client.getBlockNumber({ cacheTime: 0 }))
      let cursor = yield* cursorRow
      if (cursor === undefined) {
        const block = yield* rpc(`block ${head}`, () => client.getBlock({ blockNumber: head }))
        yield* start({ number: head, hash: block.hash, parentHash: block.parentHash })
        cursor = yield* cursorRow
        if (cursor === undefined) return { blocks: 0, reorgs: 0, behind: false, cursor: head }
      }
      let reorgs = 0
      // a reorg at the tip: the cursor's block replaced, or the node's chain now shorter than the cursor
      if (cursor.number > head || (yield* hashAt(cursor.number)) !== cursor.hash) {
        cursor = yield* undoReorg(cursor, head)
        reorgs++
      }
      const r = yield* rows
      const pending = new Map((yield* r.submitted(networkId, 10_000)).map((w) => [w.intent.transactionHash!.toLowerCase(), w] as const))
      // the watched set, once per tick that has blocks to process
      const watched = cursor.number < head ? yield* loadWatched(networkId) : { addresses: new Map(), tokens: new Map() }
      let blocks = 0
      while (cursor.number < head && blocks < MaxBlocksPerTick) {
        const block: FullBlock = yield* blockAt(cursor.number + 1n)
        if (block.parentHash !== cursor.hash) {
          cursor = yield* undoReorg(cursor, head)
          reorgs++
          if (reorgs > 3) break
          // the intents moved back to SUBMITTED are followed again
          for (const w of yield* r.submitted(networkId, 10_000)) pending.set(w.intent.transactionHash!.toLowerCase(), w)
          continue
        }
        const advanced: boolean = yield* processBlock(block, pending, watched)
        if (!advanced) break // another runner moved the cursor: the next tick reads it
        cursor = { number: block.number, hash: block.hash }
        blocks++
      }
      if (pending.size > 0) yield* sweep(cursor.number, pending)
      return { blocks, reorgs, behind: cursor.number < head, cursor: cursor.number }
    })

    return { network, tick } satisfies WatcherShape
  })
