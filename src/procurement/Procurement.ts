/**
 * Domain rules of the Procurement area (spec §2.6, §4.3).
 */
import { Effect, Option } from "effect"
import { now } from "../../layers/Clock.js"
import { ProcurementProviders } from "../../layers/ProcurementProvider.js"
import { InvalidState, RoleRequired } from "../../schema/errors.js"
import { IntentExpired, ProcurementIntentNotFound, ProcurementProviderMissing, ProviderUnavailable } from "./Errors.js"
import { ProcurementRepo } from "./Repo.js"
import { dieOnStorageFailure } from "../db/storageFailure.js"
import { can, rolesFor } from "../../schema/roles.js"

/** The state of an intent waiting for the buyer (the only one that can be resumed). */
export const AwaitingBuyer = "AWAITING_BUYER"
/** The state after the provider issued the instrument. */
export const InstrumentIssued = "INSTRUMENT_ISSUED"

/** Procurement intents: resuming. Requires `SqlClient` and `ProcurementProviders`. */
export class Procurement extends Effect.Service<Procurement>()("agent-directory/Procurement", {
  effect: Effect.gen(function*() {
    const repo = yield* ProcurementRepo
    const providers = yield* ProcurementProviders

    /**
     * Procurement_ResumeProcurementIntent (spec §4.3): hands an intent that waits for
     * the buyer (state AWAITING_BUYER, e.g. after the buyer completed a continuation)
     * back to the provider configured for its agent, and returns the intent (spec §2.6):
     * INSTRUMENT_ISSUED with the `instrument` and no `continuation`, or, when the
     * provider needs one more step, still AWAITING_BUYER with a new `continuation`.
     * The intent row is locked for the call, so concurrent resumes run one at a time and
     * exactly one issues the instrument.
     *
     * Checks, in order: `ProcurementIntentNotFound` (`procurement-intent-not-found`: no such intent of
     * this agent in the caller's workspaces), `RoleRequired` (`role-required`: not OWNER,
     * ADMIN, BILLING or OPERATOR), `IntentExpired` (`intent-expired`: state EXPIRED or
     * `expiresAt` passed; `invalid-state`: not AWAITING_BUYER), `Unprocessable`
     * (`procurement-provider-missing`: no provider configured for the agent, or one this
     * deployment has no adapter for), `ProviderUnavailable` (`provider-unavailable`).
     */
    const resume = (input: { readonly agentId: string; readonly intentId: string; readonly accountId: string }) =>
      Effect.gen(function*() {
        const at = yield* now
        const found = yield* repo.lockForResume(input)
        if (Option.isNone(found) || found.value.role === null) {
          return yield* new ProcurementIntentNotFound({ detail: `No procurement intent ${input.intentId} of this agent.` })
        }
        const { configuredProvider, intent, role } = found.value
        if (!can(role, "procurement.manage")) {
          return yield* new RoleRequired({
            detail: `Resuming needs one of the roles ${rolesFor("procurement.manage").join(", ")} in the intent's workspace.`
          })
        }
        if (intent.state === "EXPIRED" || intent.expiresAt.getTime() <= at.getTime()) {
          return yield* new IntentExpired({ detail: "The procurement intent has expired; create a new one." })
        }
        if (intent.state !== AwaitingBuyer) {
          return yield* new InvalidState({ detail: `An intent in state ${intent.state} is not waiting for the buyer.` })
        }
        const adapter = Option.flatMap(Option.fromNullable(configuredProvider), providers.adapter)
        if (Option.isNone(adapter)) {
          return yield* new ProcurementProviderMissing({
            detail: "No procurement provider is configured for this agent."
          })
        }
        const outcome = yield* adapter.value.resume({
          intentId: intent.publicId,
          providerRequestId: intent.providerRequestId,
          amountMinor: intent.amountMinor,
          currency: intent.currency,
          intentExpiresAt: intent.expiresAt,
          continuation: intent.continuation,
          now: at
        }).pipe(Effect.mapError(() =>
          new ProviderUnavailable({ detail: "The procurement provider is unavailable; retry later.", retryAfter: 5 })
        ))
        yield* repo.update(
          outcome._tag === "InstrumentIssued"
            ? { id: intent.publicId, state: InstrumentIssued, providerRequestId: outcome.providerRequestId, instrument: outcome.instrument, continuation: null, at }
            : { id: intent.publicId, state: AwaitingBuyer, providerRequestId: outcome.providerRequestId, instrument: null, continuation: outcome.continuation, at }
        )
        return yield* repo.findById(intent.publicId).pipe(Effect.flatMap(Effect.orDie), Effect.map((row) => row.intent))
      }).pipe(dieOnStorageFailure)

    return { resume }
  }),
  dependencies: [ProcurementRepo.Default]
}) {}
