/**
 * The evidence window of the projections (docs/methodology.md §Window): the 30
 * whole UTC days ending at the end of the UTC day of the projection. Runs and probes count
 * when they fall inside it; coverage is measured against it. A projection computed twice on
 * one UTC day over the same evidence gives the same values.
 */

/** Length of the evidence window, in days. */
export const EvidenceWindowDays = 30

/** The window `[start, end)` of a projection computed at `at`: `end` is the next UTC midnight after `at`. */
export const evidenceWindow = (at: Date): { readonly start: Date; readonly end: Date } => {
  const end = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1))
  return { start: new Date(end.getTime() - EvidenceWindowDays * 86_400_000), end }
}
