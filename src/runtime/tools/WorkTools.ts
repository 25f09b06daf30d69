/**
 * The built-in tools with which a configured agent takes work (docs/bounties.md, "Agents take
 * work"): `sourceKind` and `executorKind` BUILTIN, `executionClass` WRITE, `riskClass` HIGH, so
 * every call waits for a person's approval (Runtime_DecideToolApproval) whatever the agent's
 * grant says; the approving person is who acts, with their role in the agent's operating workspace.
 *
 * - `jobs.claim_bounty` `{ bountyId: uuid, expectedVersion: integer >= 1 }`: Jobs_ClaimBounty for
 *   the run's agent (the agent's operating workspace claims; the caller needs `bounties.claim`
 *   there); answers the CLAIMED bounty (`{ bounty: Bounty }`).
 * - `jobs.submit_delivery` `{ bountyId: uuid, expectedVersion, message: 1-20000 chars, links?:
 *   http(s) URLs (at most 20), artifacts?: { name, sha256, mediaType? } (at most 50) }`:
 *   Jobs_SubmitBountyDelivery of the claim; answers the SUBMITTED bounty (`{ bounty: Bounty }`).
 *
 * A refusal (404 `bounty-not-found`, 403 `role-required`, 409 `version-conflict` or
 * `invalid-state`, 422 `payout-wallet-required`, 400 naming the field) is a tool error
 * (`isError`, errorCode `TOOL_ERROR`) whose result is the problem document the REST operation
 * answers; a call nobody approved is `APPROVAL_MISSING`. Each runs in its own transaction, once
 * (a call interrupted while running is not repeated: src/runtime/loop/AgentRunWorkflow.ts).
 */
import { SqlClient } from "@effect/sql"
import { Effect, ParseResult, Schema } from "effect"
import { isProblem, toDocument } from "../../../schema/problem.js"
import { Uuid, Version } from "../../../schema/common.js"
import { Bounties, Bounty, SubmitBountyDeliveryRequest } from "../../jobs/index.js"
import type { BuiltinTool, ToolOutcome } from "./BuiltinTools.js"

/** Who a work tool's call acts for: the run's agent and the account that approved the call. */
export interface WorkToolContext {
  readonly agentId: string
  readonly approvedBy: string | null
}

const bountyId = { type: "string", format: "uuid", description: "the bounty's id (a job's `id` on the job board when its kind is BOUNTY)" }
const expectedVersion = { type: "integer", minimum: 1, description: "the bounty's `version` as last read" }

/** `jobs.claim_bounty`. */
export const ClaimBountyTool: BuiltinTool = {
  stableName: "jobs.claim_bounty",
  description: "Claim an OPEN bounty for this agent: its operating workspace takes it (one claim at a time) and must " +
    "deliver before the claim's `deliveryDueAt`; the reward is paid to the workspace's wallet on the bounty's network. " +
    "A person approves every call.",
  inputSchema: {
    type: "object",
    properties: { bountyId, expectedVersion },
    required: ["bountyId", "expectedVersion"],
    additionalProperties: false
  },
  riskClass: "HIGH",
  executionClass: "WRITE"
}

/** `jobs.submit_delivery`. */
export const SubmitDeliveryTool: BuiltinTool = {
  stableName: "jobs.submit_delivery",
  description: "Deliver the work of a bounty this agent's workspace claimed: a message, links and artifacts by SHA-256. " +
    "The poster then accepts (the escrow pays the reward) or rejects with reasons. A person approves every call.",
  inputSchema: {
    type: "object",
    properties: {
      bountyId,
      expectedVersion,
      message: { type: "string", minLength: 1, maxLength: 20000, description: "what was done, how to check it" },
      links: { type: "array", maxItems: 20, items: { type: "string", format: "uri", maxLength: 2000 }, description: "http(s) URLs" },
      artifacts: {
        type: "array",
        maxItems: 50,
        items: {
          type: "object",
          properties: {
            name: { type: "string", minLength: 1, maxLength: 200 },
            sha256: { type: "string", pattern: "^[0-9a-f]{64}$" },
            mediaType: { type: "string", minLength: 3, maxLength: 200 }
          },
          required: ["name", "sha256"],
          additionalProperties: false
        }
      }
    },
    required: ["bountyId", "expectedVersion", "message"],
    additionalProperties: false
  },
  riskClass: "HIGH",
  executionClass: "WRITE"
}

const ClaimArgs = Schema.Struct({ bountyId: Uuid, expectedVersion: Version })
/** Jobs_SubmitBountyDelivery's body (its rules: https links, lower-case SHA-256, …) and the bounty's id. */
const SubmitArgs = Schema.Struct({ bountyId: Uuid, ...SubmitBountyDeliveryRequest.fields })

const failed = (result: unknown, errorCode: string): ToolOutcome => ({ result, isError: true, errorCode })

/** Arguments that break a rule: the JSON pointers of the places (never their values). */
const invalid = (error: ParseResult.ParseError) => {
  const pointers = [...new Set(ParseResult.ArrayFormatter.formatErrorSync(error).map((issue) => "/" + issue.path.join("/")))]
  return failed({ error: `Invalid arguments: ${pointers.map((p) => `${p} breaks its rule`).join("; ")}`, pointers }, "INVALID_ARGUMENTS")
}

/** The tool outcome of a bounty command's exit: the encoded bounty, or the problem it was refused with. */
const outcomeOf = <E>(command: Effect.Effect<Bounty, E, SqlClient.SqlClient>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(command)).pipe(
    Effect.flatMap((bounty) => Effect.orDie(Schema.encode(Bounty)(bounty))),
    Effect.map((bounty): ToolOutcome => ({ result: { bounty }, isError: false, errorCode: null })),
    Effect.catchAll((e) =>
      Effect.succeed(isProblem(e) ? failed(toDocument(e), "TOOL_ERROR") : failed({ error: "The bounty could not be changed." }, "TOOL_ERROR"))
    )
  )

/** Runs work tool `stableName` (one of {@link WorkTools}) with `args` for `context`. Requires `Bounties`, `SqlClient`. */
export const runWorkTool = (stableName: string, args: Record<string, unknown>, context: WorkToolContext) =>
  Effect.gen(function*() {
    const bounties = yield* Bounties
    if (context.approvedBy === null) {
      return failed({ error: "A person must approve this call." }, "APPROVAL_MISSING")
    }
    const accountId = context.approvedBy
    if (stableName === ClaimBountyTool.stableName) {
      const input = yield* Schema.decodeUnknown(ClaimArgs)(args).pipe(Effect.either)
      if (input._tag === "Left") return invalid(input.left)
      return yield* outcomeOf(bounties.claim({
        id: input.right.bountyId,
        accountId,
        expectedVersion: input.right.expectedVersion,
        agentId: context.agentId
      }))
    }
    const input = yield* Schema.decodeUnknown(SubmitArgs)(args).pipe(Effect.either)
    if (input._tag === "Left") return invalid(input.left)
    const { bountyId: id, ...body } = input.right
    return yield* outcomeOf(bounties.submit({ id, accountId, body }))
  })

/** The work tools. */
export const WorkTools: ReadonlyArray<BuiltinTool> = [ClaimBountyTool, SubmitDeliveryTool]
