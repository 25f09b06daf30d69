/**
 * The `pg` pool under the database's `SqlClient` (`layers/Db.ts` provides it beside `PgClient`),
 * for the per-request reads of `layers/SqlRows.ts` that run a statement on it directly.
 * The same pool (same limits: connection wait, `statement_timeout`, `query_timeout`) as the client's.
 */
import { Context } from "effect"
import type Pg from "pg"

/** The `pg.Pool` of the database layer (a PGlite-backed pool of one connection on the embedded database). */
export class DbPool extends Context.Tag("agent-directory/DbPool")<DbPool, Pg.Pool>() {}
