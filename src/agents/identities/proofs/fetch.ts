/**
 * How identity proofs fetch (a chain's JSON-RPC for `ownerOf`, a did:web document): through
 * the guarded outbound client (layers/Outbound.ts: private and metadata ranges refused unless
 * `OUTBOUND_ALLOWED_HOSTS` names the host, size cap, redirect limit, User-Agent), whose
 * `fetch` the proof service passes in, each request also bounded by {@link ProofFetchTimeoutMs}.
 */

/** Timeout of one proof request, in milliseconds. */
export const ProofFetchTimeoutMs = 5_000

/** A WHATWG fetch (the outbound client's). */
export type ProofFetch = typeof globalThis.fetch

/** `fetch` with the proof timeout. */
export const withProofTimeout = (fetch: ProofFetch): ProofFetch => (input, init) =>
  fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(ProofFetchTimeoutMs) })
