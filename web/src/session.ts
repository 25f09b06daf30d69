/**
 * The signed-in person, as the pages know it: the session cookie is the service's (HttpOnly, sent
 * by the browser); the CSRF token and session id that Accounts_SignIn returns are kept in this
 * tab's `sessionStorage`, for the `X-CSRF-Token` header of commands and for signing out.
 */
import { useEffect, useState } from "preact/hooks"
import { api } from "./api"

const Key = "agent-directory.session"

export interface StoredSession {
  readonly sessionId: string
  readonly csrfToken: string
}

const listeners = new Set<() => void>()

export const storedSession = (): StoredSession | undefined => {
  const text = sessionStorage.getItem(Key)
  if (text === null) return undefined
  try {
    return JSON.parse(text) as StoredSession
  } catch {
    return undefined
  }
}

export const storeSession = (session: StoredSession | undefined): void => {
  if (session === undefined) sessionStorage.removeItem(Key)
  else sessionStorage.setItem(Key, JSON.stringify(session))
  for (const listener of listeners) listener()
}

/** The headers of a session command: a fresh `Idempotency-Key` and the session's `X-CSRF-Token`. */
export const commandHeaders = (): { "Idempotency-Key": string; "X-CSRF-Token": string } => ({
  "Idempotency-Key": crypto.randomUUID(),
  "X-CSRF-Token": storedSession()?.csrfToken ?? ""
})

/** The signed-in account's email (Accounts_GetMe), `null` when signed out, `undefined` while reading. */
export const useMe = (): string | null | undefined => {
  const [me, setMe] = useState<string | null | undefined>(undefined)
  const [tick, setTick] = useState(0)
  useEffect(() => {
    const listener = () => setTick((n) => n + 1)
    listeners.add(listener)
    return () => void listeners.delete(listener)
  }, [])
  useEffect(() => {
    let live = true
    if (storedSession() === undefined) {
      setMe(null)
      return
    }
    void api.GET("/api/v1/me").then(
      (r) => live && setMe(r.data === undefined ? null : r.data.data.email),
      () => live && setMe(null)
    )
    return () => void (live = false)
  }, [tick])
  return me
}
