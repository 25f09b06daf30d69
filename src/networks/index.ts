/**
 * The networks area's face: what other areas may use of it.
 * - `NetworksApi`: the Networks HttpApiGroup.
 * - `makeWatcher`: one network's block watcher (its `tick`), for tools that drive it directly (the chain bench).
 */
export { NetworksApi } from "./Api.js"
export { makeWatcher, MaxBlocksPerTick, type TickResult, type WatcherShape } from "./watcher/Watcher.js"
