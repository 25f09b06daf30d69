/**
 * The web directory's entry: the layout (skip link, header with the search, footer with the API
 * links) and the routes: `/` the directory, `/agents/{publicId}` an agent's page.
 */
import { render } from "preact"
import { useEffect } from "preact/hooks"
import { Agent } from "./pages/Agent"
import { Directory } from "./pages/Directory"
import { useLocation } from "./router"
import "./styles.css"

const NotFound = () => <div><h1 tabIndex={-1}>Page not found</h1><p><a href="/" data-route>Back to the directory</a></p></div>

const Page = ({ path }: { readonly path: string }) => {
  if (path === "/") return <Directory />
  const agent = /^\/agents\/([0-9a-f-]{36})$/i.exec(path)
  if (agent !== null) return <Agent id={agent[1]!} />
  return <NotFound />
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
          <a href="/docs">API reference</a>
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
