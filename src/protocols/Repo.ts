/** SQL of the Protocols area: the protocol catalog (spec §2.22). */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { ProtocolCatalogItem } from "../../schema/protocols.js"

export class ProtocolsRepo extends Effect.Service<ProtocolsRepo>()("agent-directory/ProtocolsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    /** Every catalog item, in catalog order. */
    const all = SqlSchema.findAll({
      Request: Schema.Void,
      Result: ProtocolCatalogItem,
      execute: () => sql`SELECT key, name, status, features FROM protocols ORDER BY position, key`
    })
    return { all: all(undefined).pipe(Effect.orDie) }
  })
}) {}
