/**
 * `npm run db:seed`: loads the demo data set into DATABASE_URL (or the embedded
 * database in DATA_DIR), after migrating. Does nothing when it is already there.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { AppConfigLive } from "../../layers/AppConfig.js"
import { AuthLive } from "../../layers/Auth.js"
import { DbLive } from "../../layers/Db.js"
import { IdsLive } from "../../layers/Ids.js"
import { migrate } from "../db/migrate.js"
import { seedDemoData } from "../db/seed.js"

seedDemoData.pipe(
  Effect.tap((loaded) => Effect.logInfo(loaded ? "Loaded the demo data set." : "The demo data set is already loaded.")),
  Effect.provide(AuthLive),
  Effect.provide(Layer.mergeAll(DbLive(migrate), IdsLive).pipe(Layer.provideMerge(AppConfigLive))),
  NodeRuntime.runMain
)
