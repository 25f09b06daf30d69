/**
 * Schedule preview (spec §4.4 Runtime_PreviewAgentSchedule): the next occurrences of
 * a cron expression in an IANA time zone. `cron-parser` (with its time-zone support,
 * Luxon underneath) does the calendar work, so wall-clock schedules stay correct
 * across DST changes:
 *
 * - a local time skipped by a spring-forward change (02:30 in Berlin on the last
 *   Sunday of March) fires at the same wall-clock offset after the change (03:30
 *   local), once;
 * - a local time repeated by a fall-back change (01:30 in New York on the first
 *   Sunday of November) fires once, at its first occurrence.
 */
import { CronExpressionParser } from "cron-parser"
import { Effect } from "effect"
import { InvalidRequest } from "../../schema/errors.js"

/** Max occurrences of one preview (spec §8). */
export const MaxPreviewCount = 25

const invalid = (field: "cronExpression" | "timezone", detail: string) =>
  new InvalidRequest({ detail: `${field}: ${detail}`, errors: [{ in: "body", pointer: `/${field}`, detail }] })

/** The canonical IANA name of `zone`, or none if the runtime's time-zone database does not know it. */
const canonicalZone = (zone: string): string | undefined => {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone
  } catch {
    return undefined
  }
}

/**
 * The first `count` instants strictly after `from` at which `cronExpression` (five
 * fields: minute hour day-of-month month day-of-week, or a macro such as `@daily`)
 * fires in wall-clock time of `timezone`. Returns the canonical zone name with them.
 *
 * Fails with `InvalidRequest` naming `/cronExpression` (not a five-field expression, a
 * field out of range, or one that never fires) or `/timezone` (not an IANA zone).
 */
export const previewSchedule = (input: {
  readonly cronExpression: string
  readonly timezone: string
  readonly count: number
  readonly from: Date
}): Effect.Effect<{ readonly timezone: string; readonly occurrences: ReadonlyArray<Date> }, InvalidRequest> =>
  Effect.gen(function*() {
    const zone = canonicalZone(input.timezone)
    if (zone === undefined) return yield* invalid("timezone", "must be an IANA time zone name (e.g. Europe/Berlin)")
    const expression = input.cronExpression.trim()
    if (!expression.startsWith("@") && expression.split(/\s+/).length !== 5) {
      return yield* invalid("cronExpression", "must have five fields: minute hour day-of-month month day-of-week")
    }
    const occurrences = yield* Effect.try({
      try: () => {
        const schedule = CronExpressionParser.parse(expression, { currentDate: input.from, tz: zone })
        return Array.from({ length: input.count }, () => schedule.next().toDate())
      },
      catch: () => invalid("cronExpression", "must be a valid cron expression that fires at least once")
    })
    return { timezone: zone, occurrences }
  })
