/**
 * The HTTP fetch of identity proofs (a chain's JSON-RPC for `ownerOf`, a did:web document):
 * the one place these server-side requests leave from, each bounded by {@link ProofFetchTimeoutMs}.
 *
 * TODO(outbound): route through layers/Outbound.ts, the guarded outbound client (refused
 * private/metadata ranges unless OUTBOUND_ALLOWED_HOSTS names the host, size cap, redirect
 * limit, User-Agent), once it is on main: its `fetch` replaces `globalThis.fetch` here, and
 * both viem's `http()` transport (`fetchFn`) and the did:web method already take it from here.
 */

/** Timeout of one proof request, in milliseconds. */
export const ProofFetchTimeoutMs = 5_000

/** `fetch` with the proof timeout (no redirects followed: a did:web document or an RPC endpoint answers in place). */
export const proofFetch: typeof globalThis.fetch = (input, init) =>
  globalThis.fetch(input, { ...init, redirect: "error", signal: init?.signal ?? AbortSignal.timeout(ProofFetchTimeoutMs) })
