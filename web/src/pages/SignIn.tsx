/**
 * Sign in (`/sign-in?next=…`): email and password (Accounts_SignIn), then, for an account with
 * a second factor, its TOTP or recovery code (Accounts_VerifyMfa); then back to `next`.
 */
import { useState } from "preact/hooks"
import { api, problemText } from "../api"
import { navigate, useLocation } from "../router"
import { commandHeaders, storeSession } from "../session"

/** `next` when it is a path of this site, else `/`. */
const safeNext = (next: string | null): string => next !== null && next.startsWith("/") && !next.startsWith("//") ? next : "/"

export const SignIn = () => {
  const { query } = useLocation()
  const next = safeNext(query.get("next"))
  const [email, setEmail] = useState("")
  const [password, setPassword] = useState("")
  const [code, setCode] = useState("")
  const [mfa, setMfa] = useState(false)
  const [error, setError] = useState<string | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  const signIn = async () => {
    const r = await api.POST("/api/v1/auth/sign-in", { body: { email, password } })
    if (r.data === undefined) return setError(problemText(r.error, r.response))
    storeSession({ sessionId: r.data.data.sessionId, csrfToken: r.data.data.csrfToken })
    if (r.data.data.mfaRequired) return setMfa(true)
    navigate(next)
  }
  const verify = async () => {
    const r = await api.POST("/api/v1/auth/mfa", { params: { header: commandHeaders() }, body: { code } })
    if (r.data === undefined) return setError(problemText(r.error, r.response))
    navigate(next)
  }

  return (
    <div class="narrow">
      <h1 tabIndex={-1}>Sign in</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          setError(undefined)
          setBusy(true)
          void (mfa ? verify() : signIn()).finally(() => setBusy(false))
        }}
      >
        {mfa ? (
          <p>
            <label for="code">Code from your authenticator app (or a recovery code)</label>
            <input id="code" name="code" autocomplete="one-time-code" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
          </p>
        ) : (
          <>
            <p>
              <label for="email">Email</label>
              <input id="email" name="email" type="email" autocomplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
            </p>
            <p>
              <label for="password">Password</label>
              <input id="password" name="password" type="password" autocomplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
            </p>
          </>
        )}
        {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
        <button type="submit" disabled={busy}>{mfa ? "Verify" : "Sign in"}</button>
      </form>
    </div>
  )
}
