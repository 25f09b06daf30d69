/**
 * The scratch database of the PostgreSQL benches (`bench:commerce`, `bench:work`): created on the server of
 * `DATABASE_URL` under a random name, handed to the bench as a URL, and dropped afterwards (`BENCH_KEEP_DB=1`
 * keeps it and prints its name).
 */
import { randomBytes } from "node:crypto"
import pg from "pg"

/** Runs one statement on the server of `url` (its own connection). */
export const admin = async (url: string, text: string) => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(text)
  } finally {
    await client.end()
  }
}

/**
 * Runs `bench` on a fresh database `bench_<name>_<random>` of the server of `serverUrl` (its URL passed in),
 * then drops it unless `BENCH_KEEP_DB=1`. Throws when `serverUrl` is empty (the benches need PostgreSQL).
 */
export const withScratchDatabase = async <A>(name: string, serverUrl: string, bench: (url: string) => Promise<A>): Promise<A> => {
  if (serverUrl === "") throw new Error(`bench:${name} runs on PostgreSQL: set DATABASE_URL (a server where it may create a scratch database)`)
  const scratch = `bench_${name}_${randomBytes(4).toString("hex")}`
  await admin(serverUrl, `CREATE DATABASE ${scratch}`)
  const url = new URL(serverUrl)
  url.pathname = `/${scratch}`
  try {
    return await bench(url.toString())
  } finally {
    if (process.env["BENCH_KEEP_DB"] === "1") console.log(`kept the database ${scratch}`)
    else await admin(serverUrl, `DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`)
  }
}

/** The `q`-th quantile (0-1) of `values` (nearest rank). */
export const quantile = (values: ReadonlyArray<number>, q: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN
}
