/**
 * The database: an `SqlClient` (and `PgClient`) on PostgreSQL.
 *
 * - `DATABASE_URL` set → a PostgreSQL server through a `pg` pool.
 * - unset → embedded PostgreSQL: PGlite (PostgreSQL compiled to WASM, in-process)
 *   through its node-postgres adapter, so both modes run the same `pg` driver and
 *   the same SQL through `PgClient.layerFromPool`. The pool has one connection
 *   (PGlite is a single session). Data persists in `DATA_DIR`; `memory://` is throwaway.
 *
 * Failures are bounded in time (spec §7, 503): waiting for a connection is bounded
 * by `connectTimeoutMs`, each statement by `statementTimeoutMs` (server-side
 * `statement_timeout` plus a client-side read timeout for a frozen server). An
 * embedded statement cannot be cancelled (PGlite runs it to completion on the main
 * thread), so on the embedded database only the wait for its one session is bounded.
 *
 * The caller hands in the migrations (`layers/` never imports the app); they run
 * when the layer is built. Besides `PgClient`/`SqlClient`, the layers provide the pool
 * itself as `DbPool` (the per-request reads of `layers/SqlRows.ts` use it).
 */
import { PGlite } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { unaccent } from "@electric-sql/pglite/contrib/unaccent"
import { createPgConfig } from "@electric-sql/pglite/node-postgres"
import { SqlClient } from "@effect/sql"
import type { MigrationError } from "@effect/sql/Migrator"
import { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer, Option, Redacted, Schedule, type Scope } from "effect"
import { mkdirSync } from "node:fs"
import Pg from "pg"
import { AppConfig, type DbLimits, DefaultDbLimits } from "./AppConfig.js"
import { DbPool } from "./DbPool.js"

/** The migrations to apply when the layer is built, e.g. a `Migrator.make(...)` effect. */
export type Migrations = Effect.Effect<unknown, SqlError | MigrationError, SqlClient.SqlClient>

/** Where an embedded database comes from. */
export interface EmbeddedSource {
  /** A data directory, or `memory://` for an in-memory database. */
  readonly dataDir: string
  /** A `dumpDataDir()` tarball to start from (skips initdb; used by tests). */
  readonly loadDataDir?: Blob | undefined
  /** An open PGlite to use instead (owned by the caller, not closed by the layer). */
  readonly pglite?: PGlite | undefined
}

/**
 * The contrib extensions an embedded database loads (PGlite ships them as separate bundles): `unaccent` and
 * `pg_trgm`, which the directory search creates (src/agents/migrations/0049_agent_search.ts). Every PGlite
 * that opens this schema must be given them (`new PGlite({ extensions: embeddedExtensions })`).
 */
export const embeddedExtensions = { pg_trgm, unaccent }

const makePglite = (source: EmbeddedSource): Effect.Effect<PGlite, SqlError, Scope.Scope> =>
  source.pglite !== undefined ? Effect.succeed(source.pglite) : Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        const inMemory = source.dataDir.startsWith("memory://")
        if (!inMemory) mkdirSync(source.dataDir, { recursive: true })
        const db = new PGlite({
          extensions: embeddedExtensions,
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

const poolResource = (config: Pg.PoolConfig) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const pool = new Pg.Pool(config)
      // an idle connection that breaks is dropped by the pool; the next query reports it
      pool.on("error", () => {})
      return pool
    }),
    (pool) => Effect.promise(() => pool.end()).pipe(Effect.ignore)
  )

/** The embedded PGlite database as the pool of `PgClient`. */
export const embeddedPool = (source: EmbeddedSource, limits: DbLimits = DefaultDbLimits) =>
  Effect.flatMap(makePglite(source), (db) =>
    poolResource({ ...createPgConfig(db), max: 1, connectionTimeoutMillis: limits.connectTimeoutMs } as Pg.PoolConfig))

/**
 * Start-up: `SELECT 1` until it answers, with exponential backoff (capped at 5 s)
 * for at most `startupTimeoutMs`, one warning per failed attempt; then fails with a
 * one-line `SqlError` carrying the last attempt's error.
 */
const awaitServer = (pool: Pg.Pool, where: string, limits: DbLimits) => {
  let attempt = 0
  let last: SqlError | undefined
  return Effect.tryPromise({
    try: () => pool.query("SELECT 1"),
    catch: (cause) => new SqlError({ cause, message: cause instanceof Error ? cause.message : String(cause) })
  }).pipe(
    Effect.tapError((e) => {
      last = e
      return Effect.logWarning(`database at ${where} unavailable (attempt ${++attempt}): ${e.message}; retrying`)
    }),
    Effect.retry(Schedule.exponential("200 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")))),
    // a deadline rather than Schedule.upTo: it holds under a manual test clock too
    Effect.timeoutFail({
      duration: Duration.millis(limits.startupTimeoutMs),
      onTimeout: () =>
        new SqlError({
          cause: last?.cause,
          message: `the database at ${where} is unavailable after ${attempt} attempts in ${
            limits.startupTimeoutMs / 1000
          } s (DB_STARTUP_TIMEOUT_MS): ${last?.message ?? "no answer"}`
        })
    })
  )
}

/** A PostgreSQL server's pool, bounded by `limits` (opens no connection yet). */
export const serverPool = (url: Redacted.Redacted, limits: DbLimits = DefaultDbLimits) =>
  poolResource({
    connectionString: Redacted.value(url),
    max: limits.poolMax,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    // the server cancels a slow statement; the client read timeout covers a server that stopped answering
    statement_timeout: limits.statementTimeoutMs,
    query_timeout: limits.statementTimeoutMs,
    application_name: "agent-directory"
  })

/** `PgClient`/`SqlClient` on the pool `acquire` opens (closed with the layer), and the pool as `DbPool`. */
const fromPool = (
  acquire: Effect.Effect<Pg.Pool, SqlError, Scope.Scope>
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | DbPool, SqlError> =>
  Layer.unwrapScoped(Effect.map(acquire, (pool) =>
    Layer.merge(PgClient.layerFromPool({ acquire: Effect.succeed(pool) }), Layer.succeed(DbPool, pool))))

const withMigrations = (migrations: Migrations) => (client: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | DbPool, SqlError>) =>
  Layer.effectDiscard(
    migrations.pipe(Effect.mapError((e) => e._tag === "SqlError" ? e : new SqlError({ cause: e, message: e.message })))
  ).pipe(Layer.provideMerge(client))

/** `PgClient`/`SqlClient` on an embedded database, `migrations` applied. */
export const DbEmbedded = (
  source: EmbeddedSource,
  migrations: Migrations,
  limits: DbLimits = DefaultDbLimits
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | DbPool, SqlError> =>
  withMigrations(migrations)(fromPool(embeddedPool(source, limits)))

/**
 * `PgClient`/`SqlClient` on a PostgreSQL server, `migrations` applied. Building it
 * waits up to `limits.startupTimeoutMs` for the server.
 */
export const DbServer = (
  url: Redacted.Redacted,
  migrations: Migrations,
  limits: DbLimits = DefaultDbLimits
): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | DbPool, SqlError> =>
  withMigrations(migrations)(fromPool(Effect.tap(serverPool(url, limits), (pool) => {
    const parsed = new URL(Redacted.value(url))
    return awaitServer(pool, `${parsed.hostname}:${parsed.port || "5432"}`, limits)
  })))

/**
 * The database chosen by the configuration (`DATABASE_URL`, else embedded at
 * `DATA_DIR`), bounded by its `DB_*` limits, with `migrations` applied.
 */
export const DbLive = (migrations: Migrations): Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | DbPool, SqlError, AppConfig> =>
  Layer.unwrapEffect(
    Effect.map(AppConfig, (config) =>
      Option.match(config.databaseUrl, {
        onNone: () => DbEmbedded({ dataDir: config.dataDir }, migrations, config.db),
        onSome: (url) => DbServer(url, migrations, config.db)
      }))
  )
