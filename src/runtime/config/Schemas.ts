/**
 * An agent's runtime configuration (`Runtime_ConfigureAgentRuntime`,
 * `Runtime_GetAgentRuntime`): which model answers the agent's runs and how, and which
 * of its runtime tools the model may call. No credential is part of it: `provider`
 * names a model profile of the server's configuration (`MODEL_PROFILES`), which holds
 * the key.
 */
import { Schema } from "effect"
import { DateTimeZ, rule, StrictStruct, Uuid, Version, WireString } from "../../../schema/common.js"

/** What a granted tool may do: be called (`GRANTED`) or be called once a person approved the call (`APPROVAL_REQUIRED`). */
export const ToolGrantState = Schema.Literal("GRANTED", "APPROVAL_REQUIRED").annotations({
  ...rule("must be GRANTED or APPROVAL_REQUIRED"),
  identifier: "ToolGrantState"
})
export type ToolGrantState = typeof ToolGrantState.Type

/** One tool grant: a runtime tool by `stableName` (every version of it) and what it may do. */
export const ToolGrant = StrictStruct({
  stableName: WireString(1, 300),
  grant: ToolGrantState
}).annotations({ identifier: "ToolGrant" })
export type ToolGrant = typeof ToolGrant.Type

/** The temperature, 0-2 (null = the provider's default). */
const Temperature = Schema.Number.pipe(Schema.between(0, 2), Schema.annotations(rule("must be a number 0-2 or null")))
/** Output tokens at most, 1-200000 (null = the provider's default). */
const MaxOutputTokens = Schema.Int.pipe(Schema.between(1, 200_000), Schema.annotations(rule("must be an integer 1-200000 or null")))

/** Most tool grants one configuration holds. */
export const MaxToolGrants = 500

/**
 * Body of Runtime_ConfigureAgentRuntime: the whole configuration (a PUT replaces it).
 * `provider`: `deterministic` or a configured model profile; `model`: the provider's
 * model name; `instructions`: the system prompt (0-100000 characters); `temperature`
 * 0-2 and `maxOutputTokens` 1-200000 (absent or null = the provider's default);
 * `toolGrants`: at most 500, each `stableName` once (absent = none); `expectedVersion`:
 * absent to create, the current `version` to replace.
 */
export const ConfigureAgentRuntimeRequest = StrictStruct({
  provider: WireString(1, 64),
  model: WireString(1, 200),
  instructions: WireString(0, 100_000),
  temperature: Schema.optional(Schema.NullOr(Temperature)),
  maxOutputTokens: Schema.optional(Schema.NullOr(MaxOutputTokens)),
  toolGrants: Schema.optional(
    Schema.Array(ToolGrant).pipe(Schema.maxItems(MaxToolGrants), Schema.annotations(rule(`must be at most ${MaxToolGrants} grants`)))
  ),
  expectedVersion: Schema.optional(Version)
}).annotations({ identifier: "ConfigureAgentRuntimeRequest" })
export type ConfigureAgentRuntimeRequest = typeof ConfigureAgentRuntimeRequest.Type

/** An agent's runtime configuration, as answered (never a credential). `toolGrants` ordered by `stableName`. */
export const AgentRuntimeConfig = Schema.Struct({
  entityPublicId: Uuid,
  provider: Schema.String,
  model: Schema.String,
  instructions: Schema.String,
  temperature: Schema.NullOr(Schema.Number),
  maxOutputTokens: Schema.NullOr(Schema.Int),
  toolGrants: Schema.Array(Schema.Struct({ stableName: Schema.String, grant: ToolGrantState })),
  version: Version,
  createdAt: DateTimeZ,
  updatedAt: DateTimeZ
}).annotations({ identifier: "AgentRuntimeConfig" })
export type AgentRuntimeConfig = typeof AgentRuntimeConfig.Type

/** A configuration just created (version 1): what the 201 of Runtime_ConfigureAgentRuntime carries. */
export const CreatedAgentRuntimeConfig = AgentRuntimeConfig.pipe(
  Schema.filter((c) => c.version === 1),
  Schema.annotations({ identifier: "CreatedAgentRuntimeConfig" })
)
