/**
 * The problem causes of the stats area. The shared ones (`agent-not-found`,
 * `invalid-request`) are in `schema/errors.ts`.
 */
import { Problem } from "../../schema/problem.js"

/** 404 `stats-day-not-available`: the day has not begun yet (after today, UTC): it has no figures. */
export class StatsDayNotAvailable extends Problem<StatsDayNotAvailable>()("StatsDayNotAvailable", {
  status: 404, type: "stats-day-not-available", meaning: "the day is after today (UTC): it has no figures yet"
}) {}
