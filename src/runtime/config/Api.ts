/**
 * The runtime configuration operations of the Runtime group:
 * Runtime_ConfigureAgentRuntime and Runtime_GetAgentRuntime, added to `RuntimeApi`.
 */
import * as HttpApiEndpoint from "@effect/platform/HttpApiEndpoint"
import { Schema } from "effect"
import { AgentRuntimeConfig, ConfigureAgentRuntimeRequest, CreatedAgentRuntimeConfig } from "./Schemas.js"
import { Uuid } from "../../../schema/common.js"
import { Data } from "../../../schema/envelope.js"
import {
  AgentNotFound,
  ConfigurationMissing,
  InvalidRequest,
  InvalidState,
  RoleRequired,
  VersionConflict
} from "../../../schema/errors.js"
import { IdempotencyKeyRequired } from "../../../schema/idempotency.js"
import { operation } from "../../api/operation.js"
import { agentVisibility } from "../../agentAccess/AgentVisibilityApi.js"
import { ModelProfileUnknown } from "../Errors.js"

const AgentPath = Schema.Struct({ entityPublicId: Uuid })

const visibility = agentVisibility

const shape = "The configuration (AgentRuntimeConfig): `entityPublicId`, `provider`, `model`, `instructions`, " +
  "`temperature` and `maxOutputTokens` (null = the provider's default), `toolGrants` (ordered by `stableName`), " +
  "`version`, `createdAt`, `updatedAt`. It never holds a credential: `provider` names a model profile of the server's " +
  "configuration (`MODEL_PROFILES`), which keeps the key."

/** PUT /api/v1/agents/{entityPublicId}/runtime. */
export const configureAgentRuntime = HttpApiEndpoint.put("configureAgentRuntime", "/api/v1/agents/:entityPublicId/runtime")
  .setPath(AgentPath)
  .setHeaders(IdempotencyKeyRequired)
  .setPayload(ConfigureAgentRuntimeRequest)
  .addSuccess(Data(CreatedAgentRuntimeConfig), { status: 201 })
  .addSuccess(Data(AgentRuntimeConfig))
  .pipe(
    operation({
      id: "Runtime_ConfigureAgentRuntime",
      permission: "runtime.configure",
      auth: "required-user",
      cache: "none",
      statuses: [400, 401, 403, 404, 409, 422, 500],
      summary: "Set the model, prompt and tool grants of an agent's runtime",
      description: "Sets the whole runtime configuration of the agent: which model answers its runs and how. " +
        "`provider` is `deterministic` (the built-in runtime: no model, answers deterministically; the demo's) or the " +
        "name of a model profile configured on the server (`MODEL_PROFILES`: an OpenAI Responses API or Anthropic " +
        "Messages API endpoint, an OpenAI-compatible server such as vLLM among them); an unknown name is 422 " +
        "`model-profile-unknown` naming `/provider`. `model` is the provider's model name (1-200 characters), " +
        "`instructions` the system prompt (0-100000 characters), `temperature` 0-2 and `maxOutputTokens` 1-200000 " +
        "(absent or null = the provider's default). `toolGrants` (at most 500; absent = none) lists the runtime tools " +
        "(by `stableName`, every version of the tool) the model may call: `GRANTED`, or `APPROVAL_REQUIRED` (each call " +
        "waits for a person's approval); a tool not listed is not offered to the model. A `stableName` listed twice is " +
        "a 400. The grants are mirrored into `grantState` of the agent's runtime tools (Runtime_ListRuntimeTools; null " +
        "when not granted), and tools that appear later (an MCP catalog refresh) take their grant from the " +
        "configuration. Configuring also adds the directory's built-in tools to the agent's runtime tools " +
        "(`directory.search_agents`, `directory.get_agent`; LOW risk, read-only), which are offered once granted. " +
        "A tool with riskClass HIGH waits for a person's approval whatever its grant. Without a configuration, `expectedVersion` must be absent: the configuration is created " +
        "(version 1) and the answer is 201. With one, `expectedVersion` must be its `version`: it is replaced " +
        "(version + 1) and the answer is 200. `expectedVersion` sent to create, or missing or stale to replace, is 409 " +
        "`version-conflict` (also for two concurrent creates: one wins). " + visibility + " Only the OWNER, ADMIN and " +
        "EDITOR roles may configure (403 `role-required`); a retired agent's runtime cannot be configured (409 " +
        "`invalid-state`). Runs already started keep the configuration they started with. " + shape,
      errors: [AgentNotFound, RoleRequired, InvalidState, InvalidRequest, VersionConflict, ModelProfileUnknown]
    })
  )

/** GET /api/v1/agents/{entityPublicId}/runtime. */
export const getAgentRuntime = HttpApiEndpoint.get("getAgentRuntime", "/api/v1/agents/:entityPublicId/runtime")
  .setPath(AgentPath)
  .addSuccess(Data(AgentRuntimeConfig))
  .pipe(
    operation({
      id: "Runtime_GetAgentRuntime",
      auth: "required-user",
      cache: "private",
      statuses: [400, 401, 403, 404, 422, 500],
      summary: "The runtime configuration of an agent",
      description: "The agent's runtime configuration, as Runtime_ConfigureAgentRuntime set it. " + visibility +
        " Every workspace role may read it. An agent with no runtime configured answers 422 `configuration-missing`. " +
        shape,
      errors: [AgentNotFound, ConfigurationMissing]
    })
  )
