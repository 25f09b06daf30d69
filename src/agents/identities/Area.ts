/**
 * Identity proofs of the agents area: challenge and prove control of an agent's
 * locators, and the purge of expired challenges. Its own entry of `src/areas.ts` (after the
 * agents: its demo challenge names one), its group `AgentIdentities` (tag "Agents").
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { Resolver } from "../../identity/Resolver.js"
import { Identities } from "./Identities.js"
import { seedIdentityProofs } from "../../../demo/agents/identities/seed.js"
import { AgentIdentitiesHttpLive } from "./Http.js"
import { AgentIdentitiesManifest } from "../../../demo/agents/identities/manifest.js"
import { IdentityChallengePurgeLive } from "./ChallengePurge.js"

/** The identity proofs' handlers, demo challenge, manifest and purge (see `src/Area.ts`). */
export const AgentIdentitiesArea = {
  name: "agents/identities",
  http: AgentIdentitiesHttpLive.pipe(Layer.provide(Identities.Default), Layer.provide(Resolver.Default)),
  seed: seedIdentityProofs,
  workflows: IdentityChallengePurgeLive,
  manifest: AgentIdentitiesManifest
} satisfies Area
