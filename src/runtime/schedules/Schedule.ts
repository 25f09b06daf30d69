/**
 * Cron schedules in an IANA time zone (spec §4.4 Runtime_PreviewAgentSchedule):
 * the ONE computation of a schedule's occurrences, shared by the preview and
 * by the firing of saved schedules (`./ScheduleFiring.ts`), so a schedule fires at
 * exactly the instants its preview shows. `cron-parser` (with its time-zone support,
 * Luxon underneath) does the calendar work, so wall-clock schedules stay correct
 * across DST changes. Only five-field expressions and the crontab(5) macros are
 * schedules ({@link CronMacros}): nothing fires more than once a minute. DST:
 *
 * - a local time skipped by a spring-forward change (02:30 in Berlin on the last
 *   Sunday of March) fires at the same wall-clock offset after the change (03:30
 *   local), once;
 * - a local time repeated by a fall-back change (01:30 in New York on the first
 *   Sunday of November) fires once, at its first occurrence.
 */
import { CronExpressionParser } from "cron-parser"
import { Effect } from "effect"
import { InvalidRequest } from "../../../schema/errors.js"

/** Max occurrences of one preview (spec §8). */
export const MaxPreviewCount = 25

/** A validated schedule: the expression as it is parsed (trimmed) and the canonical IANA zone name. */
export interface CronSchedule {
  readonly cronExpression: string
  readonly timezone: string
}

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
 * The cron macros a schedule may use, each the five-field expression it stands for
 * (crontab(5) of Vixie cron). Only these: `cron-parser`'s own `@secondly`, `@minutely`,
 * `@weekdays` and `@weekends` are not cron, and `@secondly` fires every second.
 */
export const CronMacros: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *"
}

const FiveFieldsRule = "must be a five-field cron expression (minute hour day-of-month month day-of-week) or one " +
  `of the macros ${Object.keys(CronMacros).join(", ")}`

/**
 * The five-field expression a trimmed `cronExpression` stands for: a macro of
 * {@link CronMacros} as its expression, five fields as they are; anything else (six
 * fields with seconds, `@every`, another macro) is none. Five fields leave
 * `cron-parser`'s seconds field at 0, so no schedule fires more than once a minute.
 */
const fiveFieldsOf = (cronExpression: string): string | undefined => {
  if (cronExpression.startsWith("@")) return Object.hasOwn(CronMacros, cronExpression) ? CronMacros[cronExpression] : undefined
  return cronExpression.split(/\s+/).length === 5 ? cronExpression : undefined
}

/** The parsed `schedule` from `after` on; throws when it is not a five-field expression or macro, or does not parse. */
const parse = (schedule: CronSchedule, after: Date) => {
  const fields = fiveFieldsOf(schedule.cronExpression)
  if (fields === undefined) throw new Error(FiveFieldsRule)
  return CronExpressionParser.parse(fields, { currentDate: after, tz: schedule.timezone })
}

/**
 * The first `count` instants strictly after `after` at which `schedule` fires in the
 * wall-clock time of its zone. Throws when the expression does not parse or runs out
 * of occurrences (a validated schedule, {@link parseSchedule}, does neither).
 */
const occurrencesOrThrow = (schedule: CronSchedule, after: Date, count: number): ReadonlyArray<Date> => {
  const expression = parse(schedule, after)
  return Array.from({ length: count }, () => expression.next().toDate())
}

/**
 * Validates a cron expression (five fields: minute hour day-of-month month
 * day-of-week, or one of the {@link CronMacros}) and an IANA zone, as every schedule
 * operation does. Returns the trimmed expression and the canonical zone name.
 *
 * Fails with `InvalidRequest` naming `/timezone` (not an IANA zone) or
 * `/cronExpression` (not five fields nor one of the macros, e.g. six fields with
 * seconds, `@secondly` or `@every 1s`; a field out of range; or one that never fires
 * after `from`).
 */
export const parseSchedule = (input: {
  readonly cronExpression: string
  readonly timezone: string
  readonly from: Date
}): Effect.Effect<CronSchedule, InvalidRequest> =>
  Effect.gen(function*() {
    const zone = canonicalZone(input.timezone)
    if (zone === undefined) return yield* invalid("timezone", "must be an IANA time zone name (e.g. Europe/Berlin)")
    const expression = input.cronExpression.trim()
    if (fiveFieldsOf(expression) === undefined) return yield* invalid("cronExpression", FiveFieldsRule)
    const schedule: CronSchedule = { cronExpression: expression, timezone: zone }
    yield* Effect.try({
      try: () => occurrencesOrThrow(schedule, input.from, 1),
      catch: () => invalid("cronExpression", "must be a valid cron expression that fires at least once")
    })
    return schedule
  })

/**
 * The first `count` occurrences of a validated `schedule` strictly after `after`
 * (fewer when it runs out of occurrences: none for an expression that never fires
 * again). The one computation behind both the preview and the firing.
 */
export const occurrencesAfter = (schedule: CronSchedule, after: Date, count: number): ReadonlyArray<Date> => {
  const found: Array<Date> = []
  try {
    const expression = parse(schedule, after)
    while (found.length < count) found.push(expression.next().toDate())
  } catch {
    // no further occurrence (or a stored expression that is no longer a schedule: it never fires)
  }
  return found
}

/** The next occurrence of a validated `schedule` strictly after `after`, or null if it never fires again. */
export const nextOccurrence = (schedule: CronSchedule, after: Date): Date | null =>
  occurrencesAfter(schedule, after, 1)[0] ?? null

/**
 * Runtime_PreviewAgentSchedule: the first `count` instants strictly after `from` at
 * which `cronExpression` fires in wall-clock time of `timezone` ({@link occurrencesAfter}).
 * Returns the canonical zone name with them.
 *
 * Fails with `InvalidRequest` as {@link parseSchedule}, and naming `/cronExpression`
 * when the expression has fewer than `count` occurrences after `from`.
 */
export const previewSchedule = (input: {
  readonly cronExpression: string
  readonly timezone: string
  readonly count: number
  readonly from: Date
}): Effect.Effect<{ readonly timezone: string; readonly occurrences: ReadonlyArray<Date> }, InvalidRequest> =>
  Effect.gen(function*() {
    const schedule = yield* parseSchedule(input)
    const occurrences = occurrencesAfter(schedule, input.from, input.count)
    if (occurrences.length < input.count) {
      return yield* invalid("cronExpression", "must be a valid cron expression that fires at least once")
    }
    return { timezone: schedule.timezone, occurrences }
  })
