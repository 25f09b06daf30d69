/** The outage log: one ERROR when the outage begins, one line with the count when it ends. */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Logger, LogLevel } from "effect"
import { OutageLog } from "../../src/http/OutageLog.js"

describe("OutageLog", () => {
  it.effect("logs the first failure with its cause and the recovery with the count of failed requests", () => {
    const lines: Array<string> = []
    const logger = Logger.replace(
      Logger.defaultLogger,
      Logger.make(({ cause, logLevel, message }) =>
        lines.push(`${logLevel.label} ${[message].flat().join(" ")}${Cause.isEmpty(cause) ? "" : " (cause)"}`)
      )
    )
    return Effect.gen(function*() {
      const outage = yield* OutageLog
      yield* outage.success
      for (let i = 0; i < 3; i++) yield* outage.failure(Cause.fail(new Error("Connection terminated unexpectedly")))
      yield* outage.success
      yield* outage.success
      yield* outage.failure(Cause.fail(new Error("again")))
      expect(lines).toEqual([
        "ERROR database unavailable (cause)",
        "INFO database available again; 3 requests failed during the outage",
        "ERROR database unavailable (cause)"
      ])
      // the INFO line is read at INFO whatever minimum an earlier server of this process set
    }).pipe(Effect.provide(OutageLog.Default), Effect.provide(logger), Logger.withMinimumLogLevel(LogLevel.Info))
  })
})
