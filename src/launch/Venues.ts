/**
 * Launch venues behind one interface (spec §2.4 `venue`). REGISTRY_GENESIS (a mint on the
 * ERC-8004 Identity Registry) and EXTERNAL_IMPORT (an existing token attached by proof) are the
 * service's own (src/launch/Launch.ts); LAUNCHPAD_FUN and BROKER_CHAIN are external venues
 * reached through a {@link LaunchVenueAdapter}. Without a configured adapter a venue refuses
 * every run at Launch_StartLaunchRun with 422 `configuration-missing`.
 */
import { Context, Effect, Layer } from "effect"
import { ConfigurationMissing } from "../../schema/errors.js"

/** The venues served by adapters. */
export type AdapterVenue = "LAUNCHPAD_FUN" | "BROKER_CHAIN"

/** What a run of an adapter venue is started for. */
export interface AdapterDraft {
  readonly draftId: string
  readonly agentId: string
  /** CAIP-2. */
  readonly network: string
  readonly signerAddress: string
}

/** One external venue. */
export interface LaunchVenueAdapter {
  readonly venue: AdapterVenue
  /**
   * Accepts a run of `draft` (its `providerReference`, if the venue gives one at once), or
   * fails with `ConfigurationMissing` (422) when the venue is not configured for it.
   */
  readonly start: (draft: AdapterDraft) => Effect.Effect<{ readonly providerReference: string | null }, ConfigurationMissing>
}

/** The adapters by venue. */
export class LaunchVenueAdapters extends Context.Tag("agent-directory/LaunchVenueAdapters")<
  LaunchVenueAdapters,
  Readonly<Record<AdapterVenue, LaunchVenueAdapter>>
>() {}

/** A venue without configuration: refuses every run with 422 `configuration-missing`. */
export const unconfiguredVenue = (venue: AdapterVenue): LaunchVenueAdapter => ({
  venue,
  start: () => Effect.fail(new ConfigurationMissing({ detail: `The ${venue} launch venue is not configured on this server.` }))
})

/** The built-in adapters: neither external venue is configured. */
export const LaunchVenueAdaptersLive = Layer.succeed(LaunchVenueAdapters, {
  LAUNCHPAD_FUN: unconfiguredVenue("LAUNCHPAD_FUN"),
  BROKER_CHAIN: unconfiguredVenue("BROKER_CHAIN")
})
