/**
 * `npm run accounts:create`: the CLI run for real as a child process
 * against an EMPTY database (a new PostgreSQL database, or a new embedded DATA_DIR), which
 * it migrates; then the server on that database signs the new account in over HTTP, and
 * the account, OWNER of its new workspace, registers an agent there.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import Pg from "pg"
import { DbEmbedded, DbServer } from "../../layers/Db.js"
import { migrate } from "../../src/db/migrate.js"
import { call, expectProblem, signInWith } from "../support/http.js"
import { makeTestServer } from "../support/TestServer.js"
import { databaseUrl, onPostgres } from "../support/database.js"

const root = new URL("../../", import.meta.url).pathname
const email = "first@example.com"
const password = "correct horse battery staple"

/** Where the empty database is, as the CLI's environment and as the server's layer. */
const target = await (async () => {
  const url = databaseUrl
  if (!onPostgres) {
    const dataDir = mkdtempSync(join(tmpdir(), "accounts-create-"))
    return {
      env: { DATA_DIR: dataDir },
      db: DbEmbedded({ dataDir }, migrate),
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true })
    }
  }
  const name = `accounts_create_${randomBytes(6).toString("hex")}`
  const admin = new Pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const dbUrl = new URL(url)
  dbUrl.pathname = `/${name}`
  return {
    env: { DATABASE_URL: dbUrl.toString() },
    db: DbServer(Redacted.make(dbUrl.toString()), migrate),
    cleanup: async () => {}
  }
})()

/** Runs the CLI with `args`, `stdin` piped in; its exit code and output. */
const cli = (args: ReadonlyArray<string>, stdin: string) => {
  const { DATABASE_URL: _, DATA_DIR: __, ...env } = process.env
  const r = spawnSync(process.execPath, ["--import", "tsx", "src/cli/accounts-create.ts", ...args], {
    cwd: root,
    input: stdin,
    env: { ...env, ...target.env, DEPLOYMENT_ENV: "production", APP_SECRET: "x".repeat(40) },
    encoding: "utf8",
    timeout: 120_000
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

// the CLI runs before the server opens the database (an embedded one is one process's at a time)
const created = cli(["--email", email, "--workspace", "First Light Labs"], `${password}\n`)
const refusals = {
  taken: cli(["--email", "FIRST@example.com", "--workspace", "Other"], `${password}\n`),
  weak: cli(["--email", "second@example.com", "--workspace", "Second"], "short\n"),
  empty: cli(["--email", "second@example.com", "--workspace", "Second"], ""),
  badEmail: cli(["--email", "not-an-email", "--workspace", "Second"], `${password}\n`),
  slugTaken: cli(["--email", "third@example.com", "--workspace", "First Light Labs"], `${password}\n`),
  usage: cli(["--email", "x@example.com", "--password", password], "")
}

const server = makeTestServer({}, { db: target.db })

layer(server.layer, { timeout: 120_000 })("accounts:create", (it) => {
  it("creates the account and its workspace; prints their ids, never the password", () => {
    expect(created.code, created.stderr).toBe(0)
    expect(created.stdout).toMatch(/^Created administrator account first@example\.com \([0-9a-f-]{36}\), OWNER of workspace "First Light Labs" \([0-9a-f-]{36}, slug first-light-labs\)\.\nSecond factor \(TOTP, needed for administrator operations\): .*POST \/api\/v1\/me\/mfa\/totp .*\n$/)
    for (const r of [created, ...Object.values(refusals)]) {
      expect(r.stdout + r.stderr).not.toContain(password)
    }
  })

  it("refuses, exit 1 with the field and rule: a taken email (any case), a weak or empty password, a bad email, a taken slug", () => {
    expect(refusals.taken).toMatchObject({ code: 1, stdout: "" })
    expect(refusals.taken.stderr).toMatch(/^email: an account with this email already exists/)
    expect(refusals.weak.code).toBe(1)
    expect(refusals.weak.stderr).toMatch(/^password: must be 12-1024 characters/)
    expect(refusals.empty.code).toBe(1)
    expect(refusals.empty.stderr).toMatch(/^password: must be 12-1024 characters/)
    expect(refusals.badEmail.code).toBe(1)
    expect(refusals.badEmail.stderr).toMatch(/^email: must be an email address/)
    expect(refusals.slugTaken.code).toBe(1)
    expect(refusals.slugTaken.stderr).toMatch(/^workspace-slug: a workspace already has the slug first-light-labs/)
    // a password is never an argument
    expect(refusals.usage.code).toBe(2)
    expect(refusals.usage.stderr).toMatch(/password/)
  })

  it.effect("the new account signs in over HTTP, owns its workspace and registers an agent there", () =>
    Effect.gen(function*() {
      const wrong = yield* call("POST", "/api/v1/auth/sign-in", { body: { email, password: "not the password" } })
      expectProblem(wrong, 401)
      const session = yield* signInWith(email, password)
      const me = yield* call("GET", "/api/v1/me", { session })
      expect(me.status, me.text).toBe(200)
      expect(me.body.data).toMatchObject({ email, displayName: "first", isAdmin: true })
      expect(me.body.data.workspaces).toEqual([
        expect.objectContaining({ name: "First Light Labs", slug: "first-light-labs", role: "OWNER", isWorkspaceOwner: true, isDefault: true })
      ])
      const workspaceId = me.body.data.workspaces[0].publicId
      const agent = yield* call("POST", "/api/v1/agents", {
        session,
        body: { workspaceId, name: "First Agent", canonicalSlug: "first-agent" }
      })
      expect(agent.status, agent.text).toBe(201)
      const list = yield* call("GET", "/api/v1/agents")
      expect(list.body.data.map((a: { canonicalSlug: string }) => a.canonicalSlug)).toEqual(["first-agent"])
      yield* Effect.promise(target.cleanup)
    }))
})
