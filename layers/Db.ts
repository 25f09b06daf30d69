/**
 * The database: an `SqlClient` (and `PgClient`) on PostgreSQL.
 *
 * - `DATABASE_URL` set → a PostgreSQL server through `PgClient`.
 * - unset → embedded PostgreSQL: PGlite (PostgreSQL compiled to WASM, in-process)
 *   through its node-postgres adapter and `PgClient.layerFromPool`, so both modes
 *   run the same `pg` driver and the same SQL. The pool has one connection (PGlite
 *   is a single session). Data persists in `DATA_DIR`; `memory://` is throwaway.
 *
 * Migrations run when the layer is built.
 */
import { PGlite } from "@electric-sql/pglite"
import { createPgConfig } from "@electric-sql/pglite/node-postgres"
import { SqlClient } from "@effect/sql"
import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Option, Redacted, type Scope } from "effect"
import { mkdirSync } from "node:fs"
import Pg from "pg"
import { migrate } from "../src/db/migrate.js"
import { AppConfig } from "./AppConfig.js"

/** Where an embedded database comes from. */
export interface EmbeddedSource {
  /** A data directory, or `memory://` for an in-memory database. */
  readonly dataDir: string
  /** A `dumpDataDir()` tarball to start from (skips initdb; used by tests). */
  readonly loadDataDir?: Blob | undefined
  /** An open PGlite to use instead (owned by the caller, not closed by the layer). */
  readonly pglite?: PGlite | undefined
}

const makePglite = (source: EmbeddedSource): Effect.Effect<PGlite, SqlError, Scope.Scope> =>
  source.pglite !== undefined ? Effect.succeed(source.pglite) : Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const inMemory = source.dataDir.startsWith("memory://")
        if (!inMemory) mkdirSync(source.dataDir, { recursive: true })
        const db = new PGlite({
          ...(inMemory ? {} : { dataDir: source.dataDir }),
          ...(source.loadDataDir ? { loadDataDir: source.loadDataDir } : {})
        })
        await db.waitReady
        return db
      },
      catch: (cause) => new SqlError({ cause, message: `cannot open the embedded database at ${source.dataDir}` })
    }),
    (db) => Effect.promise(() => db.close()).pipe(Effect.ignore)
  )

/** The embedded PGlite database as the pool of `PgClient`. */
export const embeddedPool = (source: EmbeddedSource) =>
  Effect.gen(function*() {
    const db = yield* makePglite(source)
    return yield* Effect.acquireRelease(
      Effect.sync(() => new Pg.Pool({ ...createPgConfig(db), max: 1 } as Pg.PoolConfig)),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.ignore)
    )
  })

/** `PgClient`/`SqlClient` on an embedded database, migrations applied. */
export const DbEmbedded = (source: EmbeddedSource): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  withMigrations(PgClient.layerFromPool({ acquire: embeddedPool(source) }))

/** `PgClient`/`SqlClient` on a PostgreSQL server, migrations applied. */
export const DbServer = (url: Redacted.Redacted): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError> =>
  withMigrations(PgClient.layer({ url, maxConnections: 20 }))

const withMigrations = <E>(client: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, E>) =>
  Layer.effectDiscard(
    migrate.pipe(Effect.mapError((e) => e._tag === "SqlError" ? e : new SqlError({ cause: e, message: e.message })))
  ).pipe(Layer.provideMerge(client))

/** The database chosen by the configuration (`DATABASE_URL`, else embedded at `DATA_DIR`). */
export const DbLive: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient, SqlError, AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    Option.match(config.databaseUrl, {
      onNone: () => DbEmbedded({ dataDir: config.dataDir }),
      onSome: DbServer
    }))
)
