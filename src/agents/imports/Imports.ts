/**
 * Domain rules of agent imports: recording an import and starting its
 * workflow (Agents_ImportAgentSource), reading one (Agents_GetAgentImport).
 */
import { WorkflowEngine } from "@effect/workflow"
import { Effect, Option } from "effect"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import { Outbound } from "../../../layers/Outbound.js"
import type { AgentImport, ImportAgentSourceRequest } from "../../../schema/agentImports.js"
import { requireActiveAgent, AgentOperators } from "../../agentAccess/Operators.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { AgentImportNotFound } from "./Errors.js"
import { AgentImportWorkflow } from "./ImportWorkflow.js"
import { AgentImportsRepo } from "./Repo.js"
import { rolesFor } from "../../../schema/roles.js"


export class AgentImports extends Effect.Service<AgentImports>()("agent-directory/AgentImports", {
  effect: Effect.gen(function*() {
    const repo = yield* AgentImportsRepo
    const operators = yield* AgentOperators
    const ids = yield* Ids
    const outbound = yield* Outbound
    const engine = yield* WorkflowEngine.WorkflowEngine

    const found = (id: string) =>
      Effect.flatMap(repo.findImport(id), (row) => Effect.succeed(Option.getOrThrow(row)))

    /**
     * Agents_ImportAgentSource: checks the caller's role (OWNER, ADMIN, EDITOR of the agent's
     * workspace) and the URL against the outbound rules, records the import QUEUED and starts
     * its workflow in the same transaction (a rolled-back request starts nothing). Fails with
     * `AgentNotFound`, `RoleRequired`, `OutboundTargetRefused` (naming `/url`).
     */
    const create = (input: ImportAgentSourceRequest & { readonly agentId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const access = yield* operators.access({
          entityPublicId: input.agentId,
          accountId: input.accountId,
          roles: { allowed: rolesFor("agents.import"), action: "Importing into an agent" }
        })
        yield* requireActiveAgent(access, "Importing into an agent")
        yield* outbound.checkField(input.url, "/url")
        const id = yield* ids.next
        yield* repo.insertImport({ id, agentId: input.agentId, kind: input.kind, url: input.url, accountId: input.accountId, at: yield* now })
        yield* AgentImportWorkflow.execute({ importId: id }, { discard: true }).pipe(
          Effect.provideService(WorkflowEngine.WorkflowEngine, engine)
        )
        return yield* found(id)
      }).pipe(dieOnStorageFailure)

    /** Agents_GetAgentImport: an import of the agent, for any active member of its workspace. Fails with `AgentNotFound`, `AgentImportNotFound`. */
    const get = (input: { readonly agentId: string; readonly importId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        yield* operators.access({ entityPublicId: input.agentId, accountId: input.accountId })
        const row = yield* repo.findImport(input.importId)
        if (Option.isNone(row) || row.value.entityPublicId !== input.agentId) {
          return yield* new AgentImportNotFound({ detail: "The agent has no import with this id." })
        }
        return row.value satisfies AgentImport
      }).pipe(dieOnStorageFailure)

    return { create, get }
  }),
  dependencies: [AgentImportsRepo.Default, AgentOperators.Default]
}) {}
