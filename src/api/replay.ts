/**
 * Endpoint annotation {@link ReplayAs}: the form in which an idempotent success is
 * stored and replayed, for the rare operation whose first response must not be
 * repeated (Accounts_CreateApiKey: the plaintext key is shown once; a replay shows
 * the metadata only, and the stored record never holds the secret). Applied by
 * `src/http/group.ts` before the success is encoded for storage.
 */
import { Context } from "effect"

/** Maps an operation's success value to its stored (replayed) form; values it does not recognise pass unchanged. */
export class ReplayAs extends Context.Tag("agent-directory/ReplayAs")<ReplayAs, (success: unknown) => unknown>() {}
