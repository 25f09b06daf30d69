/**
 * Reading a run: Runtime_GetRun, the full run with its steps, tool
 * calls (with their approval), usage, cost, timings and failure, and its entity tag.
 */
import { createHash } from "node:crypto"
import { Effect, Option, Schema } from "effect"
import { canonicalJson } from "../../../layers/CanonicalJson.js"
import { RunDetail } from "./Schemas.js"
import { AgentOperators } from "../../agentAccess/Operators.js"
import { dieOnStorageFailure } from "../../db/storageFailure.js"
import { conversationAccess, seesRun } from "../conversations/Conversations.js"
import { RunNotFound } from "../Errors.js"
import { RunReadsRepo } from "./ReadsRepo.js"

const encodeRun = Schema.encodeSync(RunDetail)

/**
 * The strong entity tag of a run as answered (RFC 9110 §8.8.3): `"<base64url SHA-256 of
 * the canonical JSON of its wire form>"`. It changes exactly when anything the answer
 * shows changes (state, a step, a tool call, usage, …).
 */
export const runEtag = (run: RunDetail): string =>
  `"${createHash("sha256").update(canonicalJson(encodeRun(run))).digest("base64url")}"`

/** Run reads. Requires `SqlClient`. */
export class RunReads extends Effect.Service<RunReads>()("agent-directory/RunReads", {
  effect: Effect.gen(function*() {
    const repo = yield* RunReadsRepo
    const operators = yield* AgentOperators

    /**
     * Runtime_GetRun: the full run and its entity tag, for a caller who sees it: a run of
     * a conversation is seen by whoever sees the conversation (its author, the OWNER and
     * ADMIN members; `seesConversation`), a run without one (a scheduled run) by every
     * ACTIVE member of the workspace operating its agent.
     *
     * Fails with `RunNotFound` (`run-not-found`: absent, or not visible to the caller).
     */
    const get = (input: { readonly runId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const notFound = () => new RunNotFound({ detail: `No run ${input.runId} visible to you.` })
        const found = yield* repo.detail(input.runId)
        if (Option.isNone(found)) return yield* notFound()
        const { authorAccountId, run } = found.value
        const access = yield* conversationAccess(operators, { entityPublicId: run.entityPublicId, accountId: input.accountId }).pipe(
          Effect.catchTag("AgentNotFound", () => Effect.fail(notFound()))
        )
        if (!seesRun(access, input.accountId, authorAccountId)) return yield* notFound()
        return { run, etag: runEtag(run) }
      }).pipe(dieOnStorageFailure)

    return { get }
  }),
  dependencies: [RunReadsRepo.Default, AgentOperators.Default]
}) {}
