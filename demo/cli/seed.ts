/**
 * `npm run db:seed`: loads the demo data set into DATABASE_URL (or the embedded
 * database in DATA_DIR), after migrating. Does nothing when it is already there.
 * Refuses (one line, exit 1) when DEPLOYMENT_ENV=production: the demo data has
 * published passwords, an admin among them.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfig, AppConfigLive } from "../../layers/AppConfig.js"
import { AuthLive } from "../../layers/Auth.js"
import { DbLive } from "../../layers/Db.js"
import { IdsLive } from "../../layers/Ids.js"
import { migrate } from "../../src/db/migrate.js"
import { seedDemoData } from "../seed.js"

Effect.gen(function*() {
  if ((yield* AppConfig).environment === "production") {
    process.stderr.write("Refusing to load the demo data set (published passwords) with DEPLOYMENT_ENV=production.\n")
    process.exit(1)
  }
  const loaded = yield* seedDemoData.pipe(
    Effect.provide(AuthLive),
    Effect.provide(Layer.mergeAll(DbLive(migrate), IdsLive))
  )
  yield* Effect.logInfo(loaded ? "Loaded the demo data set." : "The demo data set is already loaded.")
}).pipe(Effect.provide(AppConfigLive), NodeRuntime.runMain)
