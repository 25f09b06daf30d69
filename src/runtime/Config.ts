/**
 * The runtime area's settings, read from the environment (Effect `Config`) and validated at
 * start-up (docs/configuration.md): agent runs (`RUN_MAX_STEPS`, `RUN_TIMEOUT_SECONDS`) and
 * following them live (`RUN_EVENTS_*`). The root provides {@link RuntimeSettingsLive} with the
 * other areas' settings (`src/config.ts`).
 */
import { Config, Context, Layer } from "effect"
import { boundedInteger, millis } from "../../layers/AppConfig.js"

/**
 * Following runs live (`GET /api/v1/runs/{runId}/events`, src/runtime/events/RunEventStream.ts),
 * in milliseconds and streams (see `RUN_EVENTS_*` in docs/configuration.md).
 */
export interface RunEventsOptions {
  /** A comment line is sent after this long without an event (`RUN_EVENTS_HEARTBEAT_MS`, default 15 s). */
  readonly heartbeatMs: number
  /** The server ends a stream after this long; the client resumes with `Last-Event-ID` (`RUN_EVENTS_MAX_STREAM_MS`, default 15 min). */
  readonly maxStreamMs: number
  /** Streams one process serves at once; one more is refused with 503 (`RUN_EVENTS_MAX_STREAMS`, default 1000). */
  readonly maxStreams: number
  /** Embedded database: how often a stream reads the run's new events (`RUN_EVENTS_POLL_MS`, default 250). */
  readonly pollMs: number
  /** PostgreSQL: the safety-net read when no notification came (`RUN_EVENTS_FALLBACK_POLL_MS`, default 5 s). */
  readonly fallbackPollMs: number
}

/** The defaults of {@link RunEventsOptions}. */
export const DefaultRunEventsOptions: RunEventsOptions = {
  heartbeatMs: 15_000,
  maxStreamMs: 15 * 60_000,
  maxStreams: 1000,
  pollMs: 250,
  fallbackPollMs: 5_000
}

/** The runtime area's settings. */
export interface RuntimeSettingsShape {
  /**
   * Agent runs (src/runtime/loop/AgentRunWorkflow.ts): `RUN_MAX_STEPS` (model calls per run at
   * most, 1..64, default 8) and `RUN_TIMEOUT_SECONDS` (a run ends TIMED_OUT this long after
   * it starts, 1..86400, default 600).
   */
  readonly runs: { readonly maxSteps: number; readonly timeoutSeconds: number }
  /** Following runs live: `RUN_EVENTS_*` (docs/configuration.md). */
  readonly runEvents: RunEventsOptions
}

/** The runtime area's settings. */
export class RuntimeSettings extends Context.Tag("agent-directory/RuntimeSettings")<RuntimeSettings, RuntimeSettingsShape>() {}

/** Reads and validates the runtime area's settings (`ConfigProvider`); fails with `ConfigError`. */
export const runtimeSettings: Config.Config<RuntimeSettingsShape> = Config.all({
  runs: Config.all({
    maxSteps: boundedInteger("RUN_MAX_STEPS", 1, 64, 8),
    timeoutSeconds: boundedInteger("RUN_TIMEOUT_SECONDS", 1, 86_400, 600)
  }),
  runEvents: Config.all({
    heartbeatMs: millis("RUN_EVENTS_HEARTBEAT_MS", DefaultRunEventsOptions.heartbeatMs),
    maxStreamMs: millis("RUN_EVENTS_MAX_STREAM_MS", DefaultRunEventsOptions.maxStreamMs),
    maxStreams: boundedInteger("RUN_EVENTS_MAX_STREAMS", 1, 1_000_000, DefaultRunEventsOptions.maxStreams),
    pollMs: millis("RUN_EVENTS_POLL_MS", DefaultRunEventsOptions.pollMs),
    fallbackPollMs: millis("RUN_EVENTS_FALLBACK_POLL_MS", DefaultRunEventsOptions.fallbackPollMs)
  })
})

/** The runtime area's settings from the environment. */
export const RuntimeSettingsLive = Layer.effect(RuntimeSettings, runtimeSettings)
