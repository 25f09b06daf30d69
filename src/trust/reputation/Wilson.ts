/**
 * The Wilson score interval (Wilson 1927) at 95 % (z = 1.96), in parts per million: the
 * confidence the projections state for a proportion (docs/methodology.md §Confidence).
 * Computed in SQL (`wilsonSql`, exact `numeric` arithmetic) by the projector; `wilsonPpm` is
 * the same formula in TypeScript, for tests and for reproducing a published value.
 */

/** The normal quantile of a two-sided 95 % interval. */
export const WilsonZ = 1.96

/**
 * The interval `{lowPpm, highPpm}` of `successes` (may be fractional: weighted) in `n` trials
 * (n > 0), rounded half away from zero and clamped to [0, 1 000 000]; `n` = 0 → `[0, 1 000 000]`.
 */
export const wilsonPpm = (successes: number, n: number): { readonly lowPpm: number; readonly highPpm: number } => {
  if (n <= 0) return { lowPpm: 0, highPpm: 1_000_000 }
  const p = successes / n
  const z2 = WilsonZ * WilsonZ
  const denom = 1 + z2 / n
  const center = (p + z2 / (2 * n)) / denom
  const half = (WilsonZ * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / denom
  const clamp = (x: number) => Math.min(1_000_000, Math.max(0, Math.round(x * 1_000_000)))
  return { lowPpm: clamp(center - half), highPpm: clamp(center + half) }
}

/**
 * SQL of the Wilson interval: `successes` and `n` are SQL `numeric` expressions; answers a
 * `jsonb` `{lowPpm, highPpm, method}` (`[0, 1 000 000]` when `n` is 0 or null).
 */
export const wilsonSql = (successes: string, n: string, method: string): string => {
  const z2 = `(${WilsonZ}::numeric * ${WilsonZ}::numeric)`
  const p = `((${successes})::numeric / (${n})::numeric)`
  const nn = `(${n})::numeric`
  const denom = `(1 + ${z2} / ${nn})`
  const center = `((${p} + ${z2} / (2 * ${nn})) / ${denom})`
  const half = `(${WilsonZ}::numeric * sqrt(greatest(0, ${p} * (1 - ${p}) / ${nn} + ${z2} / (4 * ${nn} * ${nn}))) / ${denom})`
  return `CASE WHEN COALESCE(${n}, 0) > 0 THEN jsonb_build_object(
      'lowPpm', greatest(0, least(1000000, round((${center} - ${half}) * 1000000)))::int,
      'highPpm', greatest(0, least(1000000, round((${center} + ${half}) * 1000000)))::int,
      'method', '${method}')
    ELSE jsonb_build_object('lowPpm', 0, 'highPpm', 1000000, 'method', '${method}') END`
}
