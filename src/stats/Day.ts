/**
 * UTC days of the stats area: a day is `YYYY-MM-DD` and spans
 * `[YYYY-MM-DDT00:00:00.000Z, next day's 00:00Z)`. "Today" is the UTC day of `now`
 * (layers/Clock.ts); a day before it is closed.
 */

/** The instant a UTC day `day` (`YYYY-MM-DD`) begins. */
export const dayStart = (day: string): Date => new Date(`${day}T00:00:00.000Z`)

/** The instant a UTC day ends (the next day's start, excluded from the day). */
export const dayEnd = (day: string): Date => new Date(dayStart(day).getTime() + 86_400_000)

/** The UTC day of an instant. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10)

/** The day `n` days after `day` (before it when `n` < 0). */
export const addDays = (day: string, n: number): string => dayOf(new Date(dayStart(day).getTime() + n * 86_400_000))

/** The days from `from` to `to`, both included, in order (empty when `from` > `to`). */
export const daysBetween = (from: string, to: string): Array<string> => {
  const days: Array<string> = []
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d)
  return days
}

/** How many days `from`..`to` spans, both included. */
export const spanDays = (from: string, to: string): number =>
  Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / 86_400_000) + 1
