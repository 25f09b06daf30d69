/** `npm run db:migrate`: applies pending migrations to DATABASE_URL (or the embedded database in DATA_DIR). */
import { NodeRuntime } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { AppConfigLive } from "../../layers/AppConfig.js"
import { DbLive } from "../../layers/Db.js"
import { migrate } from "../db/migrate.js"

// building the database layer applies the migrations
Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const applied = yield* sql<{ name: string }>`SELECT name FROM effect_sql_migrations ORDER BY migration_id`
  yield* Effect.logInfo(`Database is up to date: ${applied.map((m) => m.name).join(", ")}`)
}).pipe(Effect.provide(DbLive(migrate)), Effect.provide(AppConfigLive), NodeRuntime.runMain)
