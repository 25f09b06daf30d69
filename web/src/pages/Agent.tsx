/**
 * An agent's page (`/agents/{publicId}`): its profile (Agents_GetAgent), trust with its methodology
 * and components (Trust_GetAgentTrust), tool-safety findings (Trust_ListAgentFindings), how to
 * connect (its interfaces and A2A Agent Card, with copyable snippets), offers and recent public
 * activity (Agents_GetPublicAgentActivity). Each section loads on its own: one failing read leaves
 * the others.
 */
import { useEffect, useState } from "preact/hooks"
import { type AgentFinding, type AgentProfile, type AgentTrust, api, problemText, type Schemas } from "../api"

type Load<A> = { readonly state: "loading" } | { readonly state: "ok"; readonly value: A } | { readonly state: "error"; readonly message: string }

const useRead = <A,>(read: () => Promise<{ data?: { data: A }; error?: unknown; response: Response }>, key: string): Load<A> => {
  const [load, setLoad] = useState<Load<A>>({ state: "loading" })
  useEffect(() => {
    let live = true
    setLoad({ state: "loading" })
    read().then(
      (r) => live && setLoad(r.data !== undefined ? { state: "ok", value: r.data.data } : { state: "error", message: problemText(r.error, r.response) }),
      () => live && setLoad({ state: "error", message: "The directory could not be reached." })
    )
    return () => void (live = false)
  }, [key])
  return load
}

/** A ppm figure (0..1,000,000) as a percentage with one decimal. */
const percent = (ppm: number | null | undefined): string => ppm === null || ppm === undefined ? "not rated" : `${(ppm / 10_000).toFixed(1)} %`

const Copy = ({ label, text }: { readonly label: string; readonly text: string }) => {
  const [done, setDone] = useState(false)
  return (
    <div class="snippet">
      <pre tabIndex={0} aria-label={label}><code>{text}</code></pre>
      <button
        type="button"
        onClick={() => void navigator.clipboard?.writeText(text).then(() => setDone(true), () => setDone(false))}
      >
        {done ? "Copied" : `Copy ${label}`}
      </button>
    </div>
  )
}

const Trust = ({ trust }: { readonly trust: Load<AgentTrust> }) => {
  if (trust.state === "loading") return <p class="muted">Loading trust…</p>
  if (trust.state === "error") return <p class="error">{trust.message}</p>
  const t = trust.value
  const components = t.components === null ? [] : Object.entries(t.components as Record<string, unknown>)
  return (
    <div>
      <p class="score">Trust <strong>{percent(t.trustPpm)}</strong>
        {t.confidence !== null ? <span class="muted"> (confidence {percent((t.confidence as { lowPpm?: number }).lowPpm)} – {percent((t.confidence as { highPpm?: number }).highPpm)})</span> : null}
      </p>
      <p class="muted">Methodology {t.methodology.key} {t.methodology.version}: {t.methodology.summary}</p>
      {components.length > 0 ? (
        <details>
          <summary>Components</summary>
          <dl class="components">
            {components.map(([name, value]) => <div><dt>{name}</dt><dd><code>{JSON.stringify(value)}</code></dd></div>)}
          </dl>
        </details>
      ) : null}
    </div>
  )
}

const Findings = ({ findings }: { readonly findings: Load<ReadonlyArray<AgentFinding>> }) => {
  if (findings.state === "loading") return <p class="muted">Loading findings…</p>
  if (findings.state === "error") return <p class="error">{findings.message}</p>
  if (findings.value.length === 0) return <p>No tool-safety finding.</p>
  return (
    <ul class="findings">
      {findings.value.map((f) => (
        <li class={`severity-${String(f.severity).toLowerCase()}`}>
          <strong>{f.severity}</strong> {f.kind} on <code>{f.subject}</code> <span class="muted">(rule {f.ruleId})</span>
        </li>
      ))}
    </ul>
  )
}

const Connect = ({ agent }: { readonly agent: AgentProfile }) => {
  const card = `${location.origin}/api/v1/agents/${agent.publicId}/agent-card`
  const mcp = agent.interfaces.find((i) => /mcp/i.test(i.protocolBinding)) ?? agent.endpoints.find((e) => /mcp/i.test(e.name))
  const mcpUrl = mcp === undefined ? undefined : "url" in mcp ? mcp.url : mcp.endpoint
  return (
    <div>
      <Copy label="A2A Agent Card URL" text={card} />
      {mcpUrl !== undefined
        ? <Copy label="MCP client configuration" text={JSON.stringify({ mcpServers: { [agent.canonicalSlug]: { url: mcpUrl } } }, null, 2)} />
        : null}
      {agent.interfaces.length > 0 ? (
        <ul>
          {agent.interfaces.map((i) => <li>{i.protocolBinding}{i.protocolVersion !== null ? ` ${i.protocolVersion}` : ""}: <code>{i.url}</code></li>)}
        </ul>
      ) : null}
    </div>
  )
}

const Offers = ({ offers }: { readonly offers: ReadonlyArray<Schemas["AgentOffer"]> }) =>
  offers.length === 0 ? <p>No published offer.</p> : (
    <ul class="offers">
      {offers.map((o) => (
        <li>
          <strong>{o.title}</strong> ({o.pricingModel}){o.currentPrice !== null ? <> — {o.currentPrice.units} units</> : null}
          <p>{o.description}</p>
        </li>
      ))}
    </ul>
  )

const Activity = ({ activity }: { readonly activity: Load<ReadonlyArray<Schemas["ActivityItem"]>> }) => {
  if (activity.state === "loading") return <p class="muted">Loading activity…</p>
  if (activity.state === "error") return <p class="error">{activity.message}</p>
  if (activity.value.length === 0) return <p>No public activity yet.</p>
  return (
    <ol class="activity">
      {activity.value.slice(0, 20).map((a) => (
        <li>
          <time dateTime={a.occurredAt}>{new Date(a.occurredAt).toLocaleString()}</time> {a.summary ?? a.activityKey}
          {a.explorerUrl !== null ? <> — <a href={a.explorerUrl} rel="noreferrer">transaction</a></> : null}
        </li>
      ))}
    </ol>
  )
}

export const Agent = ({ id }: { readonly id: string }) => {
  const path = { params: { path: { entityPublicId: id } } }
  const profile = useRead(() => api.GET("/api/v1/agents/{entityPublicId}", path), id)
  const trust = useRead(() => api.GET("/api/v1/agents/{entityPublicId}/trust", path), id)
  const findings = useRead(() => api.GET("/api/v1/agents/{entityPublicId}/findings", path), id)
  const activity = useRead(() => api.GET("/api/v1/agents/{entityPublicId}/activity", path), id)

  useEffect(() => {
    if (profile.state === "ok") document.title = `${profile.value.name} — Agent Directory`
  }, [profile])

  if (profile.state === "loading") return <p class="muted">Loading…</p>
  if (profile.state === "error") return <div><h1 tabIndex={-1}>Agent not found</h1><p role="alert" class="error">{profile.message}</p></div>
  const agent = profile.value
  return (
    <article class="agent">
      <header>
        <h1 tabIndex={-1}>{agent.name}</h1>
        {agent.tagline !== null ? <p class="tagline">{agent.tagline}</p> : null}
        <dl class="facts">
          <div><dt>Rank</dt><dd>{agent.rank ?? "unranked"}</dd></div>
          <div><dt>Verification</dt><dd class={`state state-${agent.verificationState.toLowerCase()}`}>{agent.verificationState}</dd></div>
          <div><dt>Card signature</dt><dd>{agent.signatureState ?? "UNSIGNED"}</dd></div>
          <div><dt>Protocols</dt><dd>{agent.protocols.join(", ") || "none"}</dd></div>
          <div><dt>Stars</dt><dd>{agent.starCount}</dd></div>
          <div><dt>Feedback</dt><dd>{agent.trust.feedbackCount} ({agent.trust.verifiedFeedbackCount} verified)</dd></div>
        </dl>
      </header>
      <p class="description">{agent.description}</p>
      <p><a href={`/agents/${agent.publicId}/conversation`} data-route>Talk to this agent</a></p>
      <section aria-labelledby="trust"><h2 id="trust">Trust</h2><Trust trust={trust} /></section>
      <section aria-labelledby="connect"><h2 id="connect">Connect</h2><Connect agent={agent} /></section>
      {agent.skills.length > 0 ? (
        <section aria-labelledby="skills">
          <h2 id="skills">Skills</h2>
          <ul>{agent.skills.map((s) => <li><strong>{s.name}</strong>: {s.description}</li>)}</ul>
        </section>
      ) : null}
      <section aria-labelledby="findings"><h2 id="findings">Tool safety</h2><Findings findings={findings} /></section>
      <section aria-labelledby="offers"><h2 id="offers">Offers</h2><Offers offers={agent.offers} /></section>
      <section aria-labelledby="activity"><h2 id="activity">Recent activity</h2><Activity activity={activity} /></section>
    </article>
  )
}
