/**
 * The block watchers on the durable engine (layers/Engine.ts): one cluster `Singleton` per
 * configured `eip155` network (`ChainWatcher/<CAIP-2>`), so exactly one runner of a cluster
 * watches a network; when that runner dies its shard moves and another starts it, from the
 * network's stored cursor (`chain_cursors`). Each runs a tick (./Watcher.ts) every
 * `CHAIN_POLL_INTERVAL_MS`, at once again while it is behind the head; a failed tick (the
 * node or the database unreachable) is logged and retried on the next poll.
 */
import { Singleton } from "@effect/cluster"
import { Effect, Layer } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Chain } from "../../../layers/Chain.js"
import { ensureNetworkRows } from "../Networks.js"
import { makeWatcher } from "./Watcher.js"

/** The loop of one network's watcher. */
const watchLoop = (networkId: string) =>
  Effect.gen(function*() {
    const config = yield* AppConfig
    yield* ensureNetworkRows
    const watcher = yield* makeWatcher(networkId)
    while (true) {
      const result = yield* watcher.tick.pipe(
        Effect.catchAllCause((cause) =>
          Effect.as(
            Effect.logWarning("chain watcher: tick failed; retrying on the next poll", cause).pipe(Effect.annotateLogs({ network: networkId })),
            undefined
          )
        )
      )
      if (result?.behind !== true) yield* Effect.sleep(config.chain.pollIntervalMs)
    }
  })

/** One watcher singleton per configured EVM network (nothing without networks). */
export const ChainWatchers = Layer.unwrapEffect(Effect.map(Chain, (chain) =>
  Layer.mergeAll(
    Layer.empty,
    ...chain.networks.filter((n) => n.family === "eip155").map((n) => Singleton.make(`ChainWatcher/${n.id}`, watchLoop(n.id)))
  )
))
