/**
 * Identity proofs of the agents area: challenge and prove control of an agent's
 * locators, and the purge of expired challenges. Its own entry of `src/areas.ts` (after the
 * agents, as in `demo/areas.ts`: its demo challenge names one), its group `AgentIdentities` (tag "Agents").
 */
import { Layer } from "effect"
import type { Area } from "../../Area.js"
import { Resolver } from "../../identity/Resolver.js"
import { Identities } from "./Identities.js"
import { AgentIdentitiesHttpLive } from "./Http.js"
import { IdentityChallengePurgeLive } from "./ChallengePurge.js"

/** The identity proofs' handlers and purge (see `src/Area.ts`). */
export const AgentIdentitiesArea = {
  name: "agents/identities",
  http: AgentIdentitiesHttpLive.pipe(Layer.provide(Identities.Default), Layer.provide(Resolver.Default)),
  workflows: IdentityChallengePurgeLive
} satisfies Area
