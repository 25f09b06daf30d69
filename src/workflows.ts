/**
 * The background work of every area (`Area.workflows` of `src/areas.ts`) registered on
 * the durable engine (`layers/Engine.ts`), and the engine chosen by the configuration.
 * The server program (`serverLive` of `src/startup.ts`) provides both beside the HTTP app; a
 * library user or a test does the same.
 */
import { Effect, Layer, Option } from "effect"
import type { AgentRuntime } from "../layers/AgentRuntime.js"
import { AppConfig, OutboundConfigLive } from "../layers/AppConfig.js"
import { AgentRuntimeLive } from "../layers/models/AgentRuntimeLive.js"
import type { Outbound } from "../layers/Outbound.js"
import { EngineLive } from "../layers/Engine.js"
import { ChainServicesLive } from "../layers/Chain.js"
import { type IntentOutcomeHandler, IntentOutcomes } from "../layers/TransactionIntents.js"
import { TransactionIntentsLive } from "../layers/TransactionIntentsLive.js"
import { IntentPolicyLive } from "./wallets/index.js"
import type { Area } from "./Area.js"
import { areas } from "./areas.js"

/** The background work layers of the areas of `src/areas.ts`, as typed by each area. */
type AreaWorkflows = Extract<(typeof areas)[number], { readonly workflows: unknown }>["workflows"]
// distributive over the areas' union: what any of them needs
type Needs<L> = L extends Layer.Layer<infer _A, infer _E, infer R> ? R : never

/**
 * Every area's workflows and cron jobs. Requires what they need: the engine
 * (`WorkflowEngine`, `Sharding`), `SqlClient`, the `AgentRuntime` that answers agent
 * runs (`AgentRuntimeDeterministic` by default) and the guarded `Outbound` client.
 */
export const WorkflowsLive = Layer.mergeAll(
  Layer.empty,
  ...(areas as ReadonlyArray<Area>).flatMap((area) => area.workflows === undefined ? [] : [area.workflows])
) as Layer.Layer<never, never, Needs<AreaWorkflows>>

/**
 * Every area's transaction-intent outcome handlers by purpose kind (`Area.intentOutcomes`); a kind
 * claimed by two areas is a defect at start-up.
 */
export const IntentOutcomesLive: Layer.Layer<IntentOutcomes> = Layer.sync(IntentOutcomes, () => {
  const handlers = new Map<string, IntentOutcomeHandler>()
  for (const area of areas as ReadonlyArray<Area>) {
    for (const [kind, handler] of Object.entries(area.intentOutcomes ?? {})) {
      if (handlers.has(kind)) throw new Error(`two areas handle the intent purpose ${kind}`)
      handlers.set(kind, handler)
    }
  }
  return handlers
})

/**
 * The chain layer (`Chain`, `PlatformSigner`) and the transaction intents service on it, with the
 * wallets' policy check (`IntentPolicyLive`) and every area's outcome handlers
 * ({@link IntentOutcomesLive}, provided too). Requires `AppConfig`. Provided to the HTTP handlers
 * (src/server.ts) and to the background work ({@link backgroundLive}).
 */
export const ChainIntentsLive = TransactionIntentsLive.pipe(
  Layer.provide(IntentPolicyLive),
  Layer.provideMerge(IntentOutcomesLive),
  Layer.provideMerge(ChainServicesLive)
)

/**
 * The engine of `AppConfig.engine` on the configured database (`ENGINE_*`, docs/configuration.md): the
 * in-memory runner registry on the embedded database. Requires `SqlClient`, `AppConfig`.
 */
export const ServiceEngineLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => EngineLive(config.engine, Option.isNone(config.databaseUrl)))
)

/**
 * The engine with every area's workflows registered, runs answered by `runtime` (which
 * may use the configuration and the guarded outbound client). Provides `WorkflowEngine`
 * and `Sharding` (what `ApiLive` starts work with); requires `SqlClient` and `AppConfig`.
 */
export const backgroundLive = (runtime: Layer.Layer<AgentRuntime, never, AppConfig | Outbound>) =>
  WorkflowsLive.pipe(
    Layer.provide(Layer.provideMerge(runtime, OutboundConfigLive)),
    Layer.provide(ChainIntentsLive),
    Layer.provide(IntentOutcomesLive),
    Layer.provideMerge(ServiceEngineLive)
  )

/**
 * {@link backgroundLive} with the configured model profiles (`AgentRuntimeLive`,
 * `MODEL_PROFILES`): each run is answered by its agent's `provider`, the built-in
 * `deterministic` runtime (the demo's agents) or a configured profile.
 */
export const BackgroundLive = backgroundLive(AgentRuntimeLive)
