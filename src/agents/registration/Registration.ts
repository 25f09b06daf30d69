/**
 * Domain rules of agent registration (ours, beyond spec §9's reads): Agents_CreateAgent,
 * Agents_UpdateAgent and Agents_RetireAgent. An agent is operated by one workspace
 * (`agents.workspace_id`); its OWNER, ADMIN and EDITOR members write it. Every command
 * answers with the canonical profile of Agents_GetAgent.
 */
import { SqlClient } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { Effect, Option } from "effect"
import { recordActivity } from "../../../layers/Activity.js"
import { now } from "../../../layers/Clock.js"
import { Ids } from "../../../layers/Ids.js"
import type { AgentProfile, CreateAgentRequest, RetireAgentRequest, UpdateAgentRequest } from "../../../schema/agents.js"
import { AgentNotFound, InvalidRequest, RoleRequired, WorkspaceNotFound } from "../../../schema/errors.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { runVersioned } from "../../db/versioned.js"
import { Agents } from "../Agents.js"
import { SlugTaken } from "../Errors.js"
import { type CommandRow, RegistrationRepo } from "./Repo.js"
import { can, rolesFor } from "../../../schema/roles.js"


const slugTaken = () => new SlugTaken({ detail: "canonicalSlug: another agent already has this slug; choose another." })

/** Agent registration. Requires `SqlClient`, `Ids`, `Clock`, `AppConfig`, `Cursor`. */
export class Registration extends Effect.Service<Registration>()("agent-directory/AgentRegistration", {
  effect: Effect.gen(function*() {
    const repo = yield* RegistrationRepo
    const agents = yield* Agents
    const ids = yield* Ids
    const sql = yield* SqlClient.SqlClient

    /** The profile of an agent the command just wrote (it exists in this transaction). */
    const written = (id: string): Effect.Effect<AgentProfile> => Effect.orDie(agents.profile(id))

    /**
     * Agents_CreateAgent: a listed (`listedAt` = now), UNVERIFIED, ACTIVE agent at version 1,
     * unranked with no stars, operated by `workspaceId`. Fails with `WorkspaceNotFound` (no
     * such workspace, or the caller is not an ACTIVE member: its existence is not revealed),
     * `RoleRequired` (not OWNER, ADMIN or EDITOR), `SlugTaken`. Records the agent's first public
     * activity item in the same transaction (DOMAIN_EVENT `agent.registered`, spec §2.21).
     */
    const create = (input: { readonly body: CreateAgentRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const { body } = input
        const workspaceId = body.workspaceId.toLowerCase()
        const found = yield* repo.workspaceRole(workspaceId, input.accountId)
        if (Option.isNone(found) || found.value.role === null) {
          return yield* new WorkspaceNotFound({ detail: `No workspace ${workspaceId} of yours.` })
        }
        if (!can(found.value.role, "agents.write")) {
          return yield* new RoleRequired({
            detail: `Registering agents needs one of the roles ${rolesFor("agents.write").join(", ")} in the workspace.`
          })
        }
        const id = yield* ids.next
        const at = yield* now
        const inserted = yield* repo.insert({
          id,
          workspaceId,
          name: body.name,
          canonicalSlug: body.canonicalSlug,
          tagline: body.tagline,
          description: body.description,
          links: body.links,
          at
        })
        if (!inserted) return yield* slugTaken()
        yield* recordActivity({
          agentId: id,
          activityKey: "agent.registered",
          dedupeKey: "agent.registered",
          sourceKind: "DOMAIN_EVENT",
          summary: `Registered as ${body.name} and listed in the directory.`,
          occurredAt: at
        }).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provideService(Ids, ids))
        return yield* written(id)
      }).pipe(dieOnStorageFailure)

    /** Runs one versioned command on an agent, explaining a refusal in the order of `src/db/versioned.ts`. */
    const versioned = <O>(
      entityId: string,
      accountId: string,
      expectedVersion: number,
      slug: string | null,
      update: Effect.Effect<Option.Option<number>, SqlError>,
      otherwise: (row: CommandRow) => O | undefined
    ) =>
      runVersioned({
        resource: "agent",
        expectedVersion,
        fromStates: ["ACTIVE"],
        roles: rolesFor("agents.write"),
        update,
        current: repo.current(entityId, accountId, slug),
        notFound: () => new AgentNotFound({ detail: `No agent ${entityId} operated by a workspace of yours.` }),
        otherwise
      }).pipe(Effect.zipRight(written(entityId)))

    /**
     * Agents_UpdateAgent: sets the fields present in the body (at least one), version + 1.
     * Fails with `InvalidRequest` (no field to change), `AgentNotFound` (absent, or not
     * operated by a workspace of the caller's), `RoleRequired`, `VersionConflict`,
     * `InvalidState` (a RETIRED agent), `SlugTaken`.
     */
    const update = (input: { readonly entityPublicId: string; readonly body: UpdateAgentRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const { expectedVersion, ...changes } = input.body
        if (Object.keys(changes).length === 0) {
          return yield* new InvalidRequest({
            detail: "Nothing to change.",
            errors: [{
              in: "body",
              pointer: "",
              detail: "must name at least one of name, canonicalSlug, tagline, description, links besides expectedVersion"
            }]
          })
        }
        const id = input.entityPublicId.toLowerCase()
        const command = { id, accountId: input.accountId, expectedVersion, roles: rolesFor("agents.write"), at: yield* now }
        return yield* versioned(id, input.accountId, expectedVersion, changes.canonicalSlug ?? null, repo.edit({ ...command, changes }), (row) =>
          row.slugTaken ? slugTaken() : undefined)
      }).pipe(dieOnStorageFailure)

    /**
     * Agents_RetireAgent: ACTIVE → RETIRED, unlisted (Agents_ListAgents leaves it out), version + 1;
     * Agents_GetAgent keeps answering with `state: RETIRED` and `retiredAt`. Fails with
     * `AgentNotFound`, `RoleRequired`, `VersionConflict`, `InvalidState` (already RETIRED).
     */
    const retire = (input: { readonly entityPublicId: string; readonly body: RetireAgentRequest; readonly accountId: string }) =>
      Effect.gen(function*() {
        const id = input.entityPublicId.toLowerCase()
        const { expectedVersion } = input.body
        const command = { id, accountId: input.accountId, expectedVersion, roles: rolesFor("agents.write"), at: yield* now }
        return yield* versioned<never>(id, input.accountId, expectedVersion, null, repo.retire(command), () => undefined)
      }).pipe(dieOnStorageFailure)

    return { create, update, retire }
  }),
  dependencies: [RegistrationRepo.Default]
}) {}
