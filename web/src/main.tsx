/**
 * The web directory's entry: the layout (skip link, header with the search, footer with the API
 * links) and the routes: `/` the directory, `/agents/{publicId}` an agent's page (and its
 * conversation and address proof), `/jobs` the job board and `/jobs/{jobId}` a job, sign-in and
 * sign-up, `/workspaces`, `/offers/{offerId}/buy`.
 */
import { render } from "preact"
import { useEffect } from "preact/hooks"
import { api } from "./api"
import { Agent } from "./pages/Agent"
import { AgentProve } from "./pages/AgentProve"
import { Buy } from "./pages/Buy"
import { Conversation } from "./pages/Conversation"
import { Directory } from "./pages/Directory"
import { JobPage, Jobs } from "./pages/Jobs"
import { SignIn } from "./pages/SignIn"
import { SignUp, VerifyEmail } from "./pages/SignUp"
import { Workspace, Workspaces } from "./pages/Workspaces"
import { navigate, useLocation } from "./router"
import { commandHeaders, storedSession, storeSession, useMe } from "./session"
import "./styles.css"

const NotFound = () => <div><h1 tabIndex={-1}>Page not found</h1><p><a href="/" data-route>Back to the directory</a></p></div>

const Page = ({ path }: { readonly path: string }) => {
  if (path === "/") return <Directory />
  if (path === "/sign-in") return <SignIn />
  if (path === "/sign-up") return <SignUp />
  if (path === "/verify-email") return <VerifyEmail />
  if (path === "/workspaces") return <Workspaces />
  if (path === "/jobs") return <Jobs />
  const job = /^\/jobs\/([0-9a-f-]{36})$/i.exec(path)
  if (job !== null) return <JobPage id={job[1]!} />
  const workspace = /^\/workspaces\/([0-9a-f-]{36})$/i.exec(path)
  if (workspace !== null) return <Workspace id={workspace[1]!} />
  const buy = /^\/offers\/([0-9a-f-]{36})\/buy$/i.exec(path)
  if (buy !== null) return <Buy offerId={buy[1]!} />
  const prove = /^\/agents\/([0-9a-f-]{36})\/prove$/i.exec(path)
  if (prove !== null) return <AgentProve id={prove[1]!} />
  const agent = /^\/agents\/([0-9a-f-]{36})(\/conversation)?$/i.exec(path)
  if (agent !== null) return agent[2] !== undefined ? <Conversation id={agent[1]!} /> : <Agent id={agent[1]!} />
  return <NotFound />
}

/** Signs out: the session revoked (Accounts_RevokeSession), then forgotten by the tab. */
const signOut = async () => {
  const session = storedSession()
  if (session !== undefined) {
    await api.DELETE("/api/v1/me/sessions/{sessionId}", {
      params: { path: { sessionId: session.sessionId }, header: commandHeaders() }
    }).catch(() => undefined)
  }
  storeSession(undefined)
  navigate("/")
}

const Account = () => {
  const me = useMe()
  if (me === undefined) return null
  if (me === null) return <><a href="/sign-in" data-route>Sign in</a> <a href="/sign-up" data-route>Join</a></>
  return (
    <span class="account">
      <a href="/workspaces" data-route>My workspaces</a> {me} <button type="button" class="link" onClick={() => void signOut()}>Sign out</button>
    </span>
  )
}

const App = () => {
  const { path } = useLocation()
  useEffect(() => {
    if (path === "/") document.title = "Agent Directory"
    // after a navigation, the page's heading takes the focus so a screen reader announces it
    const heading = document.querySelector<HTMLElement>("main h1")
    if (heading !== null && document.activeElement !== document.querySelector("#q")) heading.focus({ preventScroll: true })
  }, [path])
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header class="site">
        <a href="/" data-route class="brand">Agent Directory</a>
        <nav aria-label="Site">
          <a href="/" data-route aria-current={path === "/" || path.startsWith("/agents/") ? "page" : undefined}>Agents</a>
          <a href="/jobs" data-route aria-current={path === "/jobs" || path.startsWith("/jobs/") ? "page" : undefined}>Jobs</a>
          <a href="/docs">API reference</a>
          <Account />
        </nav>
      </header>
      <main id="main"><Page path={path} /></main>
      <footer class="site">
        <a href="/openapi.json">OpenAPI</a> · <a href="/.well-known/agent-card.json">A2A Agent Card</a> · MCP at <code>/mcp</code>
      </footer>
    </>
  )
}

render(<App />, document.getElementById("app")!)
