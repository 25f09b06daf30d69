/**
 * `npm run accounts:create -- --email <email> --workspace <name> [--workspace-slug <slug>] [--display-name <name>]`
 * (built: `node dist/src/cli/accounts-create.js …`): creates a platform administrator (is_admin) and a workspace
 * it OWNs in DATABASE_URL (or the embedded database in DATA_DIR), after migrating: the
 * way into an empty deployment. Rules: src/accounts/AccountCreation.ts.
 *
 * The password is read from standard input, never from an argument (arguments show in
 * `ps` and shell history): on a terminal it is prompted for twice without echo; from a
 * pipe or file the first line is taken. It is never printed or logged.
 *
 * Prints a line with the new ids and one on enrolling the second factor (TOTP, which
 * administrator operations need) on success (exit 0). A refusal prints one line naming
 * the field and its rule on stderr: exit 1 (bad email, weak or empty password, email or
 * workspace slug taken), exit 2 for a usage error.
 */
import { NodeRuntime } from "@effect/platform-node"
import { Effect, Layer } from "effect"
import { parseArgs } from "node:util"
import { AppConfigLive } from "../../layers/AppConfig.js"
import { DbLive } from "../../layers/Db.js"
import { IdsLive } from "../../layers/Ids.js"
import { createAccount, PasswordLength } from "../accounts/AccountCreation.js"
import { migrate } from "../db/migrate.js"

const usage = "usage: accounts:create --email <email> --workspace <name> [--workspace-slug <slug>] [--display-name <name>]\n" +
  "  the password is read from standard input (prompted without echo on a terminal)"

const fail = (code: number, message: string): never => {
  process.stderr.write(`${message}\n`)
  process.exit(code)
}

/** Reads one line from a terminal without echoing it (raw mode); Ctrl-C or Ctrl-D abort. */
const promptHidden = (prompt: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const stdin = process.stdin
    process.stderr.write(prompt)
    stdin.setRawMode(true)
    stdin.resume()
    stdin.setEncoding("utf8")
    let value = ""
    const done = (error?: Error) => {
      stdin.setRawMode(false)
      stdin.pause()
      stdin.off("data", onData)
      process.stderr.write("\n")
      if (error === undefined) resolve(value)
      else reject(error)
    }
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === "\r" || ch === "\n") return done()
        if (ch === "\u0003" || ch === "\u0004") return done(new Error("aborted"))
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1)
        else value += ch
      }
    }
    stdin.on("data", onData)
  })

/** All of a piped standard input; the password is its first line. */
const readPiped = (): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    process.stdin.on("data", (c: Buffer) => chunks.push(c))
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8").split(/\r?\n/)[0] ?? ""))
    process.stdin.on("error", reject)
  })

const readPassword = async (): Promise<string> => {
  if (!process.stdin.isTTY) return readPiped()
  const first = await promptHidden(`Password (${PasswordLength.min}-${PasswordLength.max} characters): `)
  const second = await promptHidden("Repeat the password: ")
  if (first !== second) fail(1, "password: the two entries differ; nothing was created.")
  return first
}

let args: ReturnType<typeof parseArgs<{ options: Record<string, { type: "string" }> }>>["values"]
try {
  args = parseArgs({
    options: { email: { type: "string" }, workspace: { type: "string" }, "workspace-slug": { type: "string" }, "display-name": { type: "string" } },
    strict: true,
    allowPositionals: false
  }).values
} catch (e) {
  fail(2, `${(e as Error).message}\n${usage}`)
}
const email = args!["email"]
const workspace = args!["workspace"]
if (email === undefined || workspace === undefined) fail(2, `--email and --workspace are required.\n${usage}`)

const password = await readPassword().catch(() => fail(1, "password: not entered; nothing was created."))

Effect.gen(function*() {
  const created = yield* createAccount({
    email: email!,
    password,
    workspaceName: workspace!,
    workspaceSlug: args["workspace-slug"],
    displayName: args["display-name"]
  })
  process.stdout.write(
    `Created administrator account ${email} (${created.accountId}), OWNER of workspace "${workspace}" ` +
      `(${created.workspaceId}, slug ${created.workspaceSlug}).\n` +
      // administrator operations need a confirmed second factor (403 mfa-required): say how to get one
      "Second factor (TOTP, needed for administrator operations): sign in (POST /api/v1/auth/sign-in), then " +
      "POST /api/v1/me/mfa/totp and confirm a code with POST /api/v1/me/mfa/totp/confirm (docs/mfa.md).\n"
  )
}).pipe(
  Effect.catchTags({
    InvalidAccountField: (e) => Effect.sync(() => fail(1, `${e.field}: ${e.rule}; nothing was created.`)),
    WeakPassword: (e) => Effect.sync(() => fail(1, `password: ${e.rule}; nothing was created.`)),
    EmailTaken: () => Effect.sync(() => fail(1, "email: an account with this email already exists; nothing was created.")),
    WorkspaceSlugTaken: (e) =>
      Effect.sync(() => fail(1, `workspace-slug: a workspace already has the slug ${e.slug}; pass another --workspace-slug.`))
  }),
  Effect.provide(Layer.mergeAll(DbLive(migrate), IdsLive)),
  Effect.provide(AppConfigLive),
  NodeRuntime.runMain
)
