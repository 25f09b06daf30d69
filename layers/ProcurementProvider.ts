/**
 * Procurement providers (spec §2.6): the issuers that turn a procurement intent into
 * a payment instrument, as a layer. `ProcurementProviders` names the adapters this
 * deployment has; an agent's configured provider (`procurement_providers`) is looked
 * up by name. A live integration implements {@link ProcurementAdapter} and is
 * registered with {@link ProcurementProvidersFrom}; {@link DemoIssuer} is the
 * deterministic in-process adapter the demo data and the tests use.
 */
import { createHash } from "node:crypto"
import { Context, Data, Effect, Layer, Option } from "effect"
import type { ProcurementContinuation, ProcurementInstrument } from "../schema/procurement.js"
import { Ids } from "./Ids.js"

/** What a provider needs to resume an intent that waits for the buyer. */
export interface ResumeRequest {
  readonly intentId: string
  readonly providerRequestId: string | null
  readonly amountMinor: bigint
  readonly currency: string
  readonly intentExpiresAt: Date
  /** The continuation the buyer was sent to, if any. */
  readonly continuation: ProcurementContinuation | null
  readonly now: Date
}

/** What the provider decided: an issued instrument, or one more step for the buyer. */
export type ResumeOutcome =
  | { readonly _tag: "InstrumentIssued"; readonly providerRequestId: string; readonly instrument: ProcurementInstrument }
  | { readonly _tag: "ActionRequired"; readonly providerRequestId: string; readonly continuation: ProcurementContinuation }

/** The provider could not be reached or failed; nothing changed on its side. */
export class ProviderUnavailable extends Data.TaggedError("ProviderUnavailable")<{ readonly provider: string }> {}

/** One provider integration. */
export interface ProcurementAdapter {
  readonly resume: (request: ResumeRequest) => Effect.Effect<ResumeOutcome, ProviderUnavailable>
}

/** The provider adapters of this deployment, by provider name. */
export class ProcurementProviders extends Context.Tag("agent-directory/ProcurementProviders")<ProcurementProviders, {
  /** The adapter of `provider`, none when this deployment has no such integration. */
  readonly adapter: (provider: string) => Option.Option<ProcurementAdapter>
}>() {}

/** A registry of the given adapters. */
export const ProcurementProvidersFrom = <R>(
  adapters: Effect.Effect<Readonly<Record<string, ProcurementAdapter>>, never, R>
): Layer.Layer<ProcurementProviders, never, R> =>
  Layer.effect(ProcurementProviders, Effect.map(adapters, (byName) => ({
    adapter: (provider) => Option.fromNullable(Object.hasOwn(byName, provider) ? byName[provider] : undefined)
  })))

/** How long a continuation the demo issuer hands out stays valid (15 min). */
export const DemoContinuationTtlMs = 15 * 60_000

/**
 * `demo-issuer`: deterministic, in-process. Resuming an intent whose continuation is
 * still valid (or that has none) issues a virtual card: state `ACTIVE`, `last4` from
 * SHA-256 of the intent id, valid until the intent expires. Resuming after the
 * continuation expired hands out a fresh continuation (valid 15 minutes) instead.
 * The provider request id is `demo-<intent id>`. New ids come from `Ids`.
 */
export const DemoIssuer: Effect.Effect<ProcurementAdapter, never, Ids> = Effect.map(Ids, (ids) => ({
  resume: (request) =>
    Effect.gen(function*() {
      const providerRequestId = request.providerRequestId ?? `demo-${request.intentId}`
      if (request.continuation !== null && request.continuation.expiresAt.getTime() <= request.now.getTime()) {
        const publicId = yield* ids.next
        return {
          _tag: "ActionRequired",
          providerRequestId,
          continuation: {
            publicId,
            actionUrl: `https://issuer.demo.agent-directory.dev/continue/${publicId}`,
            expiresAt: new Date(request.now.getTime() + DemoContinuationTtlMs)
          }
        } as const
      }
      const digits = createHash("sha256").update(request.intentId).digest().readUInt32BE(0) % 10_000
      return {
        _tag: "InstrumentIssued",
        providerRequestId,
        instrument: {
          publicId: yield* ids.next,
          state: "ACTIVE",
          last4: digits.toString().padStart(4, "0"),
          expiresAt: request.intentExpiresAt
        }
      } as const
    })
}))

/** The providers of the demo deployment: `demo-issuer` only. */
export const ProcurementProvidersDemo: Layer.Layer<ProcurementProviders, never, Ids> = ProcurementProvidersFrom(
  Effect.map(DemoIssuer, (demo) => ({ "demo-issuer": demo }))
)
