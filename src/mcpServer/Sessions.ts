/**
 * The live MCP sessions of this process (MCP Streamable HTTP, `Mcp-Session-Id`),
 * bounded in number and idle time:
 *
 * - a session ends after `idleMs` without a request (its next request gets 404, so the
 *   client starts a new one, as the MCP transport prescribes); expired sessions are swept
 *   whenever the table is used, least recently used first;
 * - at most `maxSessions` live at once: while full, a new session is refused (`room` says
 *   when the least recently used one idles out, for `Retry-After`), never evicting a live
 *   one, so a flood of `initialize` cannot end other clients' sessions;
 * - a session belongs to the credential that opened it (`owner`, e.g. `api-key:<uuid>` or
 *   `anonymous`): presented with another credential it is unknown (404).
 *
 * Sessions are in-process state: several server processes need sticky routing of `/mcp` by
 * `Mcp-Session-Id` (docs/mcp-a2a.md). Times are milliseconds of the Effect `Clock` (layers/Clock.ts).
 */

/** What ends a session: its transport and server. */
export interface SessionResources {
  readonly close: () => Promise<void>
}

/** One live session. */
export interface SessionEntry<S extends SessionResources = SessionResources> {
  readonly id: string
  readonly owner: string
  readonly resources: S
  /** When its last request arrived (Clock milliseconds). */
  lastSeenMs: number
}

/** The session table (see the module docs). */
export interface SessionTable<S extends SessionResources> {
  /** The live session `id` of `owner`, touched at `nowMs`; undefined when unknown, expired or another owner's. */
  readonly lookup: (id: string, owner: string, nowMs: number) => SessionEntry<S> | undefined
  /**
   * Reserves room for a new session at `nowMs` (after the sweep), counted until `release` (call it once the
   * `initialize` is answered, whether or not the session was added); when full, the seconds until one idles out.
   */
  readonly reserve: (nowMs: number) =>
    | { readonly ok: true; readonly release: () => void }
    | { readonly ok: false; readonly retryAfterSeconds: number }
  /** Registers a session that has just been initialized. */
  readonly add: (entry: SessionEntry<S>) => void
  /** Forgets session `id` and closes it (once). */
  readonly end: (id: string) => void
  /** How many sessions are live (expired ones not yet swept included). */
  readonly size: () => number
  /** Ends every session (the server is stopping). */
  readonly endAll: () => void
}

/** A session table holding at most `maxSessions` sessions, each ending after `idleMs` without a request. */
export const makeSessionTable = <S extends SessionResources>(limits: {
  readonly maxSessions: number
  readonly idleMs: number
}): SessionTable<S> => {
  // insertion order = least recently used first: a touched session is moved to the end
  const sessions = new Map<string, SessionEntry<S>>()
  // sessions reserved by an `initialize` still being answered
  let pending = 0
  const end = (id: string) => {
    const entry = sessions.get(id)
    if (entry === undefined) return
    sessions.delete(id)
    // closing calls the transport's onsessionclosed → end(id) again: a no-op by then
    entry.resources.close().catch(() => {})
  }
  const expired = (entry: SessionEntry<S>, nowMs: number) => nowMs - entry.lastSeenMs >= limits.idleMs
  const sweep = (nowMs: number) => {
    for (const entry of sessions.values()) {
      if (!expired(entry, nowMs)) break
      end(entry.id)
    }
  }
  return {
    lookup: (id, owner, nowMs) => {
      sweep(nowMs)
      const entry = sessions.get(id)
      if (entry === undefined || entry.owner !== owner) return undefined
      entry.lastSeenMs = nowMs
      sessions.delete(id)
      sessions.set(id, entry)
      return entry
    },
    reserve: (nowMs) => {
      sweep(nowMs)
      if (sessions.size + pending < limits.maxSessions) {
        pending++
        let released = false
        return {
          ok: true,
          release: () => {
            if (released) return
            released = true
            pending--
          }
        }
      }
      const oldest = sessions.values().next().value
      // full of initializations still in flight: they take about a request's time
      if (oldest === undefined) return { ok: false, retryAfterSeconds: 1 }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((oldest.lastSeenMs + limits.idleMs - nowMs) / 1000)) }
    },
    add: (entry) => {
      sessions.delete(entry.id)
      sessions.set(entry.id, entry)
    },
    end,
    size: () => sessions.size,
    endAll: () => {
      for (const id of [...sessions.keys()]) end(id)
    }
  }
}
