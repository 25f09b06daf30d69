/**
 * The block watcher's chain observations (src/networks/watcher/): each CHAIN_OBSERVATION
 * activity item remembers the block it was seen in (`agent_activity.chain_block_number`), so a
 * reorg that drops blocks deletes exactly the items of those blocks (by network and number),
 * and the transaction is observed again in its new block.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql.unsafe(`
ALTER TABLE agent_activity ADD COLUMN chain_block_number numeric(78,0);
CREATE INDEX agent_activity_chain_block_idx ON agent_activity (network_id, chain_block_number) WHERE chain_block_number IS NOT NULL;
`)
})
