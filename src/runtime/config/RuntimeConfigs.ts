/**
 * Agents' runtime configurations: Runtime_ConfigureAgentRuntime
 * (create or replace, optimistic concurrency, tool grants mirrored into the agent's
 * runtime tools) and Runtime_GetAgentRuntime. The command runs inside its one
 * transaction with its idempotency record (`src/http/group.ts`).
 */
import { Effect, Option } from "effect"
import { AppConfig } from "../../../layers/AppConfig.js"
import { now } from "../../../layers/Clock.js"
import { DeterministicProvider, isKnownProvider } from "../../../layers/ModelProfiles.js"
import type { AgentRuntimeConfig, ConfigureAgentRuntimeRequest, ToolGrantState } from "./Schemas.js"
import { ConfigurationMissing, InvalidRequest, VersionConflict } from "../../../schema/errors.js"
import { AgentOperators, requireActiveAgent } from "../../agentAccess/Operators.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { ModelProfileUnknown } from "../Errors.js"
import { RuntimeConfigsRepo } from "./Repo.js"
import { ensureBuiltinTools } from "../tools/BuiltinTools.js"
import { rolesFor } from "../../../schema/roles.js"


/** Runtime configurations. Requires `SqlClient`, `AppConfig`. */
export class RuntimeConfigs extends Effect.Service<RuntimeConfigs>()("agent-directory/RuntimeConfigs", {
  effect: Effect.gen(function*() {
    const repo = yield* RuntimeConfigsRepo
    const operators = yield* AgentOperators
    const config = yield* AppConfig

    /**
     * Runtime_ConfigureAgentRuntime: creates the agent's configuration (version 1) when it
     * has none and `expectedVersion` is absent, else replaces it when `expectedVersion` is
     * its version (version + 1); then sets `grant_state` of every version of the agent's
     * runtime tools to its `stableName`'s grant (null when not granted), and records the
     * current definition of each tool granted or re-granted differently now as the approved one
     * (`runtime_tool_approvals`: a later change of it needs a person's approval before a call).
     * Returns the configuration and whether it was created.
     *
     * Fails with `AgentNotFound` (404 `agent-not-found`), `RoleRequired` (403, not OWNER,
     * ADMIN or EDITOR), `InvalidState` (409 `invalid-state`: the agent is retired),
     * `InvalidRequest` (400: a `stableName` granted twice), `ModelProfileUnknown` (422
     * `model-profile-unknown`: `provider` names no profile), `VersionConflict` (409:
     * `expectedVersion` sent to create, missing or stale to replace).
     */
    const configure = (input: {
      readonly entityPublicId: string
      readonly accountId: string
      readonly request: ConfigureAgentRuntimeRequest
    }) =>
      Effect.gen(function*() {
        const access = yield* operators.access({
          entityPublicId: input.entityPublicId,
          accountId: input.accountId,
          roles: { allowed: rolesFor("runtime.configure"), action: "Configuring the agent's runtime" }
        })
        yield* requireActiveAgent(access, "Configuring the agent's runtime")
        const { request } = input
        const grants: Record<string, ToolGrantState> = {}
        for (const [i, grant] of (request.toolGrants ?? []).entries()) {
          if (Object.hasOwn(grants, grant.stableName)) {
            return yield* new InvalidRequest({
              detail: "toolGrants names a tool twice.",
              errors: [{ in: "body", pointer: `/toolGrants/${i}/stableName`, detail: "must not repeat an earlier grant's stableName" }]
            })
          }
          grants[grant.stableName] = grant.grant
        }
        if (!isKnownProvider(config.modelProfiles, request.provider)) {
          const known = [DeterministicProvider, ...Object.keys(config.modelProfiles).sort()].join(", ")
          return yield* new ModelProfileUnknown({
            detail: `provider names no model profile of this server; the profiles are: ${known}.`,
            errors: [{ in: "body", pointer: "/provider", detail: "must name a configured model profile" }]
          })
        }
        const values = {
          agentId: input.entityPublicId,
          provider: request.provider,
          model: request.model,
          instructions: request.instructions,
          temperature: request.temperature ?? null,
          maxOutputTokens: request.maxOutputTokens ?? null,
          toolGrants: grants,
          at: yield* now
        }
        const current = yield* repo.find(input.entityPublicId)
        let written: Option.Option<AgentRuntimeConfig>
        if (Option.isNone(current)) {
          if (request.expectedVersion !== undefined) {
            return yield* new VersionConflict({
              detail: "The agent has no runtime configuration yet; omit expectedVersion to create one."
            })
          }
          written = yield* repo.insert(values)
          if (Option.isNone(written)) {
            return yield* new VersionConflict({
              detail: "The agent's runtime was configured meanwhile; read it and send its version as expectedVersion."
            })
          }
        } else {
          if (request.expectedVersion === undefined) {
            return yield* new VersionConflict({
              detail: `The agent's runtime is configured (version ${current.value.version}); send expectedVersion to replace it.`
            })
          }
          written = yield* repo.replace({ ...values, expectedVersion: request.expectedVersion })
          if (Option.isNone(written)) {
            return yield* new VersionConflict({
              detail: "expectedVersion is not the configuration's current version; read it again."
            })
          }
        }
        // the directory's own tools (directory.search_agents, directory.get_agent) exist for every runtime, granted or not
        yield* ensureBuiltinTools(input.entityPublicId, values.at)
        yield* repo.mirrorGrants(input.entityPublicId)
        // a grant given (or changed) now approves the tool's current definition; one kept as it was approves nothing new
        const before = Option.match(current, {
          onNone: () => new Map<string, string>(),
          onSome: (c) => new Map(c.toolGrants.map((g) => [g.stableName, g.grant]))
        })
        const granted = Object.entries(grants).filter(([name, grant]) => before.get(name) !== grant).map(([name]) => name)
        yield* repo.approveCurrentDefinitions(input.entityPublicId, granted, input.accountId, values.at)
        return written.value
      }).pipe(dieOnStorageFailure)

    /**
     * Runtime_GetAgentRuntime: the agent's configuration. Fails with `AgentNotFound` (404)
     * and `ConfigurationMissing` (422 `configuration-missing`: none configured).
     */
    const get = (input: { readonly entityPublicId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        yield* operators.access(input)
        const found = yield* repo.find(input.entityPublicId)
        if (Option.isNone(found)) {
          return yield* new ConfigurationMissing({ detail: "The agent has no runtime configured; configure it first." })
        }
        return found.value
      }).pipe(dieOnStorageFailure)

    return { configure, get }
  }),
  dependencies: [RuntimeConfigsRepo.Default, AgentOperators.Default]
}) {}
