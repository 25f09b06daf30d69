/** Helpers of the analytics tests: context tokens, the due jobs, ingestion calls. */
import { Context, Effect, Layer, Redacted } from "effect"
import type { ManualClock } from "../../layers/Clock.js"
import { IdsSequence } from "../../layers/Ids.js"
import { JobRunner, JobRunnerLayer } from "../../layers/JobRunner.js"
import { JobsLive } from "../../layers/Jobs.js"
import { type ContextClaims, mintContextToken } from "../../src/analytics/ContextToken.js"
import { serviceJobHandlers } from "../../src/jobs/Runner.js"
import { testConfig } from "../support/config.js"
import { call, type CallOptions } from "../support/http.js"
import { DemoAgents } from "../../src/agents/demo.js"

/** A context token signed with the test configuration's key (default: a visitor of Atlas consenting to traffic). */
export const contextToken = (claims: Partial<ContextClaims> = {}) =>
  mintContextToken(Redacted.value(testConfig().keys.analyticsContext), {
    sub: "visitor-1",
    agent: DemoAgents[0].id,
    consent: ["traffic"],
    exp: Date.UTC(2030, 0, 1) / 1000,
    ...claims
  })

/** POST /api/v1/analytics/events. */
export const ingest = (body: unknown, options: CallOptions = {}) => call("POST", "/api/v1/analytics/events", { body, ...options })

/** Runs every due job once with the service's handlers, at the test server's clock; returns how many ran. */
export const runDueJobs = (clock: ManualClock) =>
  Effect.scoped(Effect.gen(function*() {
    const context = yield* Layer.build(
      JobRunnerLayer(serviceJobHandlers, [], testConfig().jobs).pipe(Layer.provide(JobsLive), Layer.provide(IdsSequence("0000000e")))
    )
    return yield* Context.get(context, JobRunner).runDue
  })).pipe(Effect.withClock(clock))
