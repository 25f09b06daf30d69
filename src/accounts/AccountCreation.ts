/**
 * The first account of a deployment (and any later one an operator makes by hand): an
 * account with a password, and a workspace it OWNs (its default workspace), written in
 * one transaction, its email verified at once. Used by `npm run accounts:create`
 * (src/cli/accounts-create.ts); sign-up over HTTP is Accounts_SignUp (`./signUp/`).
 *
 * Rules (each refusal a tagged error the CLI prints, never with the password):
 * - `email`: 3-320 characters, `local@domain.tld`, no white space; unique without regard
 *   to case (`accounts_email_key` on `lower(email)`) → `EmailTaken`;
 * - `password`: 12-1024 characters, not only white space → `WeakPassword`; stored as the
 *   scrypt hash of layers/Password.ts, as sign-in checks it;
 * - `workspaceName`: 1-160 characters, not only white space; its slug (`workspaceSlug`,
 *   else derived from the name: lower case, runs of other characters → `-`) 3-64
 *   characters of `a-z`, `0-9` and single `-`, unique → `WorkspaceSlugTaken`;
 * - `displayName`: 1-160 characters (default: the email's local part).
 */
import { SqlClient } from "@effect/sql"
import { Data, Effect } from "effect"
import { now } from "../../layers/Clock.js"
import { Ids } from "../../layers/Ids.js"
import { hashPassword } from "../../layers/Password.js"

/** A field that breaks its rule (`field` names it; the value is never repeated). */
export class InvalidAccountField extends Data.TaggedError("InvalidAccountField")<{ readonly field: string; readonly rule: string }> {}
/** An account already has this email (compared without regard to case). */
export class EmailTaken extends Data.TaggedError("EmailTaken")<{}> {}
/** The password is too short, too long or only white space. */
export class WeakPassword extends Data.TaggedError("WeakPassword")<{ readonly rule: string }> {}
/** A workspace already has this slug. */
export class WorkspaceSlugTaken extends Data.TaggedError("WorkspaceSlugTaken")<{ readonly slug: string }> {}

/** Minimum and maximum password length, in characters. */
export const PasswordLength = { min: 12, max: 1024 } as const

const EmailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const SlugPattern = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

/** The slug a workspace name gives: lower case ASCII letters and digits, other runs → `-`, at most 64 characters. */
export const slugOfName = (name: string): string =>
  name.normalize("NFKD").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^[-0-9]+|-+$/g, "").slice(0, 64).replace(/-+$/, "")

/** What makes a first account. */
export interface NewAccount {
  readonly email: string
  readonly password: string
  readonly workspaceName: string
  readonly workspaceSlug?: string | undefined
  readonly displayName?: string | undefined
}

const text = (field: string, value: string, max: number) =>
  value.trim().length === 0 || value.length > max || value.includes("\u0000")
    ? Effect.fail(new InvalidAccountField({ field, rule: `must be 1-${max} characters, not only white space` }))
    : Effect.void

/** Checks every rule of {@link NewAccount} that needs no database; returns the workspace slug. */
export const validateNewAccount = (input: NewAccount) =>
  Effect.gen(function*() {
    if (input.email.length < 3 || input.email.length > 320 || !EmailPattern.test(input.email)) {
      return yield* new InvalidAccountField({ field: "email", rule: "must be an email address (local@domain.tld) of 3-320 characters" })
    }
    const p = input.password
    if (p.length < PasswordLength.min || p.length > PasswordLength.max || p.trim().length === 0) {
      return yield* new WeakPassword({
        rule: `must be ${PasswordLength.min}-${PasswordLength.max} characters, not only white space`
      })
    }
    yield* text("workspace", input.workspaceName, 160)
    if (input.displayName !== undefined) yield* text("display-name", input.displayName, 160)
    const slug = input.workspaceSlug ?? slugOfName(input.workspaceName)
    if (slug.length < 3 || slug.length > 64 || !SlugPattern.test(slug)) {
      return yield* new InvalidAccountField({
        field: input.workspaceSlug === undefined ? "workspace (its slug)" : "workspace-slug",
        rule: "must give a slug of 3-64 characters of a-z, 0-9 and single hyphens, starting with a letter" +
          (input.workspaceSlug === undefined ? "; pass --workspace-slug" : "")
      })
    }
    return slug
  })

/**
 * Creates the account (a platform administrator: the bootstrap of an empty deployment), the workspace (ACTIVE, version 1) and the OWNER membership
 * (workspace owner, default workspace) in one transaction. Returns their ids. Fails with
 * `InvalidAccountField`, `WeakPassword`, `EmailTaken`, `WorkspaceSlugTaken`; `SqlError` otherwise.
 */
export const createAccount = (input: NewAccount) =>
  Effect.gen(function*() {
    const slug = yield* validateNewAccount(input)
    const sql = yield* SqlClient.SqlClient
    const ids = yield* Ids
    // hashed before the transaction: ~100 ms of scrypt holds no lock
    const passwordHash = yield* hashPassword(input.password)
    return yield* sql.withTransaction(Effect.gen(function*() {
      const at = yield* now
      const accountId = yield* ids.next
      const workspaceId = yield* ids.next
      const account = yield* sql`INSERT INTO accounts ${
        sql.insert({
          id: accountId,
          email: input.email,
          display_name: input.displayName ?? input.email.split("@")[0]!,
          password_hash: passwordHash,
          // the bootstrap of an empty deployment: its first platform administrator (everyone else signs up)
          is_admin: true,
          created_at: at,
          // made by an operator: verified from the start (sign-up over the API verifies by mail)
          email_verified_at: at
        })
      } ON CONFLICT DO NOTHING RETURNING id`
      if (account.length === 0) return yield* new EmailTaken()
      const workspace = yield* sql`INSERT INTO workspaces ${
        sql.insert({ id: workspaceId, name: input.workspaceName, slug, state: "ACTIVE", version: 1, created_at: at, updated_at: at })
      } ON CONFLICT (slug) DO NOTHING RETURNING id`
      if (workspace.length === 0) return yield* new WorkspaceSlugTaken({ slug })
      yield* sql`INSERT INTO workspace_members ${
        sql.insert({
          workspace_id: workspaceId,
          account_id: accountId,
          role: "OWNER",
          state: "ACTIVE",
          is_workspace_owner: true,
          is_default: true,
          accepted_at: at,
          version: 1,
          created_at: at
        })
      }`
      return { accountId, workspaceId, workspaceSlug: slug }
    }))
  })
