/**
 * API key management rules (ours; spec §5.3 Creation, Rotation; §5.4.2): OWNER and
 * ADMIN members of a workspace create, list and revoke its public API keys. A key
 * belongs to this deployment's environment (`DEPLOYMENT_ENV`). Rotation is
 * create-new, move traffic, revoke-old: several keys may be active at once.
 */
import { Effect, Option, Redacted } from "effect"
import type { ApiKey, ApiKeyScope, CreatedApiKey } from "../Schemas.js"
import { InvalidRequest, WorkspaceNotFound, WorkspaceRoleRequired } from "../../../schema/errors.js"
import { ApiKeyNotFound } from "../Errors.js"
import { AppConfig } from "../../../layers/AppConfig.js"
import { Audit } from "../../../layers/Audit.js"
import { Auth } from "../../../layers/Auth.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { ApiKeysRepo } from "./Repo.js"
import { can } from "../../../schema/roles.js"

/** API keys of workspaces. Requires `SqlClient`, `Auth`, `AppConfig`, `Ids`. */
export class ApiKeys extends Effect.Service<ApiKeys>()("agent-directory/ApiKeys", {
  effect: Effect.gen(function*() {
    const repo = yield* ApiKeysRepo
    const auth = yield* Auth
    const ids = yield* Ids
    const config = yield* AppConfig
    const audit = yield* Audit

    /** Fails unless the account is an ACTIVE member holding `apiKeys.manage` (OWNER, ADMIN): `WorkspaceNotFound` for non-members (existence hidden), else `WorkspaceRoleRequired`. */
    const requireManager = (workspaceId: string, accountId: string) =>
      Effect.gen(function*() {
        const role = yield* repo.role(workspaceId, accountId)
        if (Option.isNone(role)) {
          return yield* new WorkspaceNotFound({ detail: `No workspace ${workspaceId}.` })
        }
        if (!can(role.value, "apiKeys.manage")) {
          return yield* new WorkspaceRoleRequired({
            detail: "Managing API keys needs the OWNER or ADMIN role in the workspace."
          })
        }
      })

    /**
     * Accounts_CreateApiKey: issues a key and returns its plaintext with its metadata;
     * writes the audit event `api_key.created` (name, prefix, scopes; never the key).
     * Scopes and origins are deduplicated, origins lowercased (browsers send them so).
     * Fails with `WorkspaceNotFound`/`WorkspaceRoleRequired` (see requireManager), `InvalidRequest` for an
     * `expiresAt` not in the future.
     */
    const create = (input: {
      readonly workspaceId: string
      readonly accountId: string
      readonly name: string
      readonly scopes: ReadonlyArray<ApiKeyScope>
      readonly expiresAt: Date | undefined
      readonly allowedOrigins: ReadonlyArray<string> | undefined
    }) =>
      Effect.gen(function*() {
        yield* requireManager(input.workspaceId, input.accountId)
        const at = yield* now
        if (input.expiresAt !== undefined && input.expiresAt.getTime() <= at.getTime()) {
          return yield* new InvalidRequest({
            detail: "expiresAt must be in the future.",
            errors: [{ in: "body", pointer: "/expiresAt", detail: "must be in the future" }]
          })
        }
        const id = yield* ids.next
        const key = yield* auth.issueApiKey({
          id,
          workspaceId: input.workspaceId,
          name: input.name,
          createdBy: input.accountId,
          scopes: [...new Set(input.scopes)],
          allowedOrigins: [...new Set((input.allowedOrigins ?? []).map((o) => o.toLowerCase()))],
          environment: config.environment,
          expiresAt: input.expiresAt ?? null
        })
        const apiKey = yield* repo.get(input.workspaceId, id).pipe(Effect.flatMap(Effect.orDieWith(() => "created key not found")))
        yield* audit.record({
          workspaceId: input.workspaceId,
          actorAccountId: input.accountId,
          action: "api_key.created",
          target: { type: "api_key", id },
          details: {
            name: apiKey.name,
            prefix: apiKey.prefix,
            scopes: apiKey.scopes.join(" "),
            environment: apiKey.environment,
            expiresAt: apiKey.expiresAt?.toISOString() ?? null
          }
        })
        const created: CreatedApiKey = { apiKey, key: Redacted.value(key), keyDelivery: "SHOWN_ONCE" }
        return created
      })

    /** Accounts_ListApiKeys: the workspace's keys, metadata only, newest first. Fails like requireManager. */
    const list = (workspaceId: string, accountId: string): Effect.Effect<ReadonlyArray<ApiKey>, WorkspaceNotFound | WorkspaceRoleRequired> =>
      Effect.zipRight(requireManager(workspaceId, accountId), repo.list(workspaceId))

    /**
     * Accounts_RevokeApiKey: revokes a key of the workspace (again: unchanged) and
     * returns its metadata; a revocation writes the audit event `api_key.revoked`. Fails like requireManager, and `NotFound` for a key that
     * is not the workspace's.
     */
    const revoke = (workspaceId: string, apiKeyId: string, accountId: string) =>
      Effect.gen(function*() {
        yield* requireManager(workspaceId, accountId)
        const before = yield* repo.get(workspaceId, apiKeyId)
        if (Option.isNone(before)) {
          return yield* new ApiKeyNotFound({ detail: `No API key ${apiKeyId} in this workspace.` })
        }
        if (before.value.state === "REVOKED") return before.value
        yield* repo.revoke({ workspaceId, id: apiKeyId, at: yield* now })
        yield* audit.record({
          workspaceId,
          actorAccountId: accountId,
          action: "api_key.revoked",
          target: { type: "api_key", id: apiKeyId },
          details: { name: before.value.name, prefix: before.value.prefix }
        })
        return yield* repo.get(workspaceId, apiKeyId).pipe(Effect.flatMap(Effect.orDieWith(() => "revoked key not found")))
      })

    return { create, list, revoke }
  }),
  dependencies: [ApiKeysRepo.Default]
}) {}
