/**
 * Join (`/sign-up`): email, display name and password (Accounts_SignUp); the service mails a
 * link to `/verify-email#token=…`, where {@link VerifyEmail} confirms the address
 * (Accounts_VerifyEmail) and sends the person on to sign in.
 */
import { useEffect, useState } from "preact/hooks"
import { api, problemText } from "../api"

export const SignUp = () => {
  const [email, setEmail] = useState("")
  const [displayName, setDisplayName] = useState("")
  const [password, setPassword] = useState("")
  const [error, setError] = useState<string | undefined>(undefined)
  const [sent, setSent] = useState(false)
  if (sent) {
    return (
      <div class="narrow">
        <h1 tabIndex={-1}>Check your mail</h1>
        <p>We sent a link to <strong>{email}</strong>. Open it to confirm your address, then sign in.</p>
      </div>
    )
  }
  return (
    <div class="narrow">
      <h1 tabIndex={-1}>Join the directory</h1>
      <form
        onSubmit={(event) => {
          event.preventDefault()
          setError(undefined)
          void api.POST("/api/v1/auth/sign-up", { body: { email, displayName, password } }).then((r) =>
            r.response.ok ? setSent(true) : setError(problemText(r.error, r.response)))
        }}
      >
        <p>
          <label for="email">Email</label>
          <input id="email" type="email" autocomplete="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </p>
        <p>
          <label for="name">Display name</label>
          <input id="name" autocomplete="name" required value={displayName} onInput={(e) => setDisplayName(e.currentTarget.value)} />
        </p>
        <p>
          <label for="password">Password (12 characters or more, hard to guess)</label>
          <input id="password" type="password" autocomplete="new-password" required minLength={12} value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
        </p>
        {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
        <button type="submit">Join</button>
      </form>
    </div>
  )
}

export const VerifyEmail = () => {
  const [state, setState] = useState<"checking" | "verified" | string>("checking")
  useEffect(() => {
    const token = new URLSearchParams(location.hash.slice(1)).get("token") ?? ""
    // the token leaves the address bar (and the history) at once
    history.replaceState(null, "", location.pathname)
    void api.POST("/api/v1/auth/email-verification", { body: { token } }).then((r) =>
      setState(r.response.ok ? "verified" : problemText(r.error, r.response)))
  }, [])
  return (
    <div class="narrow">
      <h1 tabIndex={-1}>Confirm your address</h1>
      {state === "checking" ? <p class="muted">Checking the link…</p> : state === "verified"
        ? <p>Your address is confirmed. <a href="/sign-in?next=/workspaces" data-route>Sign in</a>.</p>
        : <p role="alert" class="error">{state}</p>}
    </div>
  )
}
