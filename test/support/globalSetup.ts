/**
 * Prepares the seeded database every test file starts from, once per run:
 * - embedded (no DATABASE_URL): a PGlite data directory dump (migrated + demo data);
 * - PostgreSQL (DATABASE_URL): a template database each test file clones.
 */
import { PGlite } from "@electric-sql/pglite"
import { Effect, Layer, Redacted } from "effect"
import { writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Pg from "pg"
import type {} from "vitest"
import type { TestProject } from "vitest/node"
import { DbEmbedded, DbServer, embeddedExtensions } from "../../layers/Db.js"
import { AuthLive } from "../../layers/Auth.js"
import { IdsSequence } from "../../layers/Ids.js"
import { migrate } from "../../src/db/migrate.js"
import { seedDemoData } from "../../demo/seed.js"
import { TestConfigLayer } from "./config.js"
import { databaseUrl, onPostgres } from "./database.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** Embedded mode: path of the seeded data directory dump. */
    templateDump: string
    /** PostgreSQL mode: name of the seeded template database. */
    templateDatabase: string
    /** Embedded mode: path of the migrated, empty data directory dump (a production deployment's first start). */
    emptyDump: string
    /** PostgreSQL mode: name of the migrated, empty template database. */
    emptyDatabase: string
  }
}

const seed = (db: Layer.Layer<import("@effect/sql").SqlClient.SqlClient, unknown>) =>
  Effect.runPromise(
    seedDemoData.pipe(
      Effect.provide(AuthLive),
      Effect.provide(Layer.mergeAll(db, TestConfigLayer, IdsSequence("0000000a"))),
      Effect.scoped
    ) as Effect.Effect<boolean, unknown, never>
  )

export default async function setup(project: TestProject) {
  const url = databaseUrl
  if (!onPostgres) {
    const path = join(tmpdir(), `adapi-template-${process.pid}.tar.gz`)
    const emptyPath = join(tmpdir(), `adapi-template-empty-${process.pid}.tar.gz`)
    await Effect.runPromise(Effect.gen(function*() {
      const pglite = yield* Effect.promise(async () => {
        const db = new PGlite({ extensions: embeddedExtensions })
        await db.waitReady
        return db
      })
      const db = DbEmbedded({ dataDir: "memory://", pglite }, migrate)
      const save = (to: string) =>
        Effect.promise(async () => writeFileSync(to, Buffer.from(await (await pglite.dumpDataDir("gzip")).arrayBuffer())))
      yield* Effect.promise(() => Effect.runPromise(Effect.scoped(Layer.build(db))))
      yield* save(emptyPath)
      yield* Effect.promise(() => seed(db))
      yield* save(path)
      yield* Effect.promise(() => pglite.close())
    }))
    project.provide("templateDump", path)
    project.provide("templateDatabase", "")
    project.provide("emptyDump", emptyPath)
    project.provide("emptyDatabase", "")
    return
  }
  const name = `adapi_template_${process.pid}`
  const admin = new Pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${name}`)
  await admin.query(`CREATE DATABASE ${name}`)
  const templateUrl = new URL(url)
  templateUrl.pathname = `/${name}`
  await seed(DbServer(Redacted.make(templateUrl.toString()), migrate))
  const emptyName = `adapi_template_empty_${process.pid}`
  await admin.query(`DROP DATABASE IF EXISTS ${emptyName}`)
  await admin.query(`CREATE DATABASE ${emptyName}`)
  const emptyUrl = new URL(url)
  emptyUrl.pathname = `/${emptyName}`
  await Effect.runPromise(Effect.scoped(Layer.build(DbServer(Redacted.make(emptyUrl.toString()), migrate))) as Effect.Effect<unknown, unknown>)
  project.provide("templateDump", "")
  project.provide("templateDatabase", name)
  project.provide("emptyDump", "")
  project.provide("emptyDatabase", emptyName)
  return async () => {
    const clones = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${name}_c_%`]
    )
    for (const { datname } of clones.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
    const emptyClones = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${emptyName}_c_%`]
    )
    for (const { datname } of emptyClones.rows) await admin.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`)
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await admin.query(`DROP DATABASE IF EXISTS ${emptyName} WITH (FORCE)`)
    await admin.end()
  }
}
