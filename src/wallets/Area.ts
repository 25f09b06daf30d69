/** The wallets area: wallets, their policies and wallet-agent relations. Listed in `src/areas.ts`. */
import { Layer } from "effect"
import type { Area } from "../Area.js"
import { AgentRelations } from "./relations/AgentRelations.js"
import { WalletAgentRelationsHttpLive } from "./relations/Http.js"
import { WalletsHttpLive } from "./Http.js"
import { migrations } from "./Migrations.js"
import { SignerCustodyLive } from "./policies/CustodyProvider.js"
import { WalletPoliciesHttpLive } from "./policies/Http.js"
import { WalletPolicies } from "./policies/Policies.js"
import { WalletPolicyProvisionLive } from "./policies/ProvisionWorkflow.js"
import { WalletProfilesHttpLive } from "./profiles/Http.js"
import { WalletProfiles } from "./profiles/Profiles.js"
import { WalletRegistrationHttpLive } from "./registration/Http.js"
import { WalletRegistration } from "./registration/Registration.js"
import { Wallets } from "./Wallets.js"
import { IntentSenderLive } from "./intents/Sender.js"
import { WalletIntentsHttpLive } from "./intents/Http.js"
import { WalletIntents } from "./intents/WalletIntents.js"

/** The wallets area's handlers (policies and profiles, registration, wallet-agent relations), the policies' provisioning workflow and migrations (see `src/Area.ts`). */
export const WalletsArea = {
  name: "wallets",
  http: Layer.mergeAll(
    WalletsHttpLive.pipe(Layer.provide([Wallets.Default])),
    WalletRegistrationHttpLive.pipe(Layer.provide(WalletRegistration.Default)),
    WalletProfilesHttpLive.pipe(Layer.provide(WalletProfiles.Default)),
    WalletPoliciesHttpLive.pipe(Layer.provide(WalletPolicies.Default), Layer.provide(SignerCustodyLive)),
    WalletAgentRelationsHttpLive.pipe(Layer.provide(AgentRelations.Default)),
    WalletIntentsHttpLive.pipe(Layer.provide(WalletIntents.Default))
  ),
  // the policies' provisioning and the platform's transaction sender (./intents/Sender.ts)
  workflows: Layer.mergeAll(WalletPolicyProvisionLive.pipe(Layer.provide(SignerCustodyLive)), IntentSenderLive),
  migrations
} satisfies Area
