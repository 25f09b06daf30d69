/**
 * Which database the tests run on: PostgreSQL when `DATABASE_URL` is set and not empty
 * (`DATABASE_URL=postgres://… npx vitest run …`), otherwise the embedded database
 * (PGlite). test/support/globalSetup.ts reads it the same way.
 */

/** The PostgreSQL server's URL, or `""` on the embedded database. */
export const databaseUrl: string = process.env["DATABASE_URL"] ?? ""

/** Whether the tests run on PostgreSQL (else on the embedded database). */
export const onPostgres: boolean = databaseUrl !== ""
