/**
 * An agent's page (`/agents/{publicId}`): its profile (Agents_GetAgent), trust with its methodology
 * and components (Trust_GetAgentTrust), rank and performance with theirs (Trust_GetAgentRank,
 * Trust_GetAgentPerformance), how to connect (its interfaces and A2A Agent Card, with copyable
 * snippets), tools with their tool-safety findings (Trust_ListAgentFindings; the runtime's tools,
 * Runtime_ListRuntimeTools, for a member of a workspace operating it), offers with their prices in
 * effect and a link to buy each (Services_ListAgentOffers), wallets with their proven relations
 * (Wallets_ListAgentWallets), the last 30 days' statistics as a chart (Stats_ListAgentDailyStats)
 * and recent public activity (Agents_GetPublicAgentActivity). Each section loads on its own: one
 * failing read leaves the others.
 */
import { useEffect, useState } from "preact/hooks"
import { type AgentFinding, type AgentProfile, type AgentTrust, api, problemText, type Schemas } from "../api"
import { BarChart } from "../chart"
import { storedSession } from "../session"

type Load<A> =
  | { readonly state: "loading" }
  | { readonly state: "ok"; readonly value: A; readonly at: string }
  | { readonly state: "error"; readonly message: string }

/** Reads `read()` once per `key`; `at` is the server's clock (`meta.generatedAt`) when it answered. */
const useRead = <A,>(
  read: () => Promise<{ data?: { data: A; meta: { generatedAt: string } }; error?: unknown; response: Response }>,
  key: string
): Load<A> => {
  const [load, setLoad] = useState<Load<A>>({ state: "loading" })
  useEffect(() => {
    let live = true
    setLoad({ state: "loading" })
    read().then(
      (r) =>
        live && setLoad(r.data !== undefined
          ? { state: "ok", value: r.data.data, at: r.data.meta.generatedAt }
          : { state: "error", message: problemText(r.error, r.response) }),
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
      <Methodology m={t.methodology} path="trust" />
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

/** Where the API reference describes how a figure is computed (docs/methodology.md holds the formulas). */
const methodologyHref = (path: "trust" | "rank" | "performance") => `/docs#tag/trust/GET/api/v1/agents/{entityPublicId}/${path}`

const Methodology = ({ m, path }: { readonly m: Schemas["Methodology"]; readonly path: "trust" | "rank" | "performance" }) => (
  <p class="muted">
    Methodology {m.key} {m.version}: {m.summary} <a href={methodologyHref(path)}>How the {path} is computed</a>
  </p>
)

const Interval = ({ c }: { readonly c: Schemas["ConfidenceInterval"] | null }) =>
  c === null ? null : <span class="muted"> (confidence {percent(c.lowPpm)} – {percent(c.highPpm)})</span>

const Coverage = ({ c }: { readonly c: Schemas["Coverage"] | null }) =>
  c === null ? null : <p class="muted">Evidence on {c.daysWithData} of the last {c.windowDays} days ({percent(c.ratioPpm)} coverage).</p>

const ms = (n: number | null) => n === null ? "—" : `${n} ms`

const Rank = ({ rank }: { readonly rank: Load<Schemas["AgentRank"]> }) => {
  if (rank.state === "loading") return <p class="muted">Loading rank…</p>
  if (rank.state === "error") return <p class="error">{rank.message}</p>
  const r = rank.value
  const c = r.components
  return (
    <div>
      <p class="score">Rank <strong>{r.rank !== null ? `#${r.rank}` : r.listed ? "unranked" : "not listed"}</strong>, score <strong>{percent(r.scorePpm)}</strong><Interval c={r.confidence} /></p>
      <Coverage c={r.coverage} />
      {c !== null ? (
        <table class="components">
          <caption>Rank components</caption>
          <thead><tr><th scope="col">Component</th><th scope="col">Value</th><th scope="col">Weight</th><th scope="col">From</th></tr></thead>
          <tbody>
            <tr><th scope="row">Trust</th><td>{percent(c.trust.valuePpm)}</td><td>{c.trust.weight}</td><td>ratings and safety evidence</td></tr>
            <tr><th scope="row">Performance</th><td>{percent(c.performance.valuePpm)}</td><td>{c.performance.weight}</td><td>runs and endpoint probes</td></tr>
            <tr><th scope="row">Proofs</th><td>{percent(c.proofs.valuePpm)}</td><td>{c.proofs.weight}</td><td>{c.proofs.provenIdentities} proven identities</td></tr>
            <tr><th scope="row">Stars</th><td>{percent(c.stars.valuePpm)}</td><td>{c.stars.weight}</td><td>{c.stars.starCount} stars</td></tr>
          </tbody>
        </table>
      ) : null}
      <Methodology m={r.methodology} path="rank" />
    </div>
  )
}

const Performance = ({ performance }: { readonly performance: Load<Schemas["AgentPerformance"]> }) => {
  if (performance.state === "loading") return <p class="muted">Loading performance…</p>
  if (performance.state === "error") return <p class="error">{performance.message}</p>
  const p = performance.value
  const c = p.components
  return (
    <div>
      <p class="score">Performance <strong>{percent(p.performancePpm)}</strong><Interval c={p.confidence} /></p>
      <Coverage c={p.coverage} />
      {c !== null ? (
        <table class="components">
          <caption>Performance components</caption>
          <thead><tr><th scope="col">Evidence</th><th scope="col">Count</th><th scope="col">Rate</th><th scope="col">Latency p50</th><th scope="col">Latency p95</th></tr></thead>
          <tbody>
            <tr>
              <th scope="row">Runs</th>
              <td>{c.runs.finished} finished: {c.runs.succeeded} succeeded, {c.runs.failed} failed, {c.runs.timedOut} timed out</td>
              <td>{percent(c.runs.successRatePpm)} success</td><td>{ms(c.runs.latencyP50Ms)}</td><td>{ms(c.runs.latencyP95Ms)}</td>
            </tr>
            <tr>
              <th scope="row">Endpoint probes</th>
              <td>{c.endpoints.ok} of {c.endpoints.probes} answered</td>
              <td>{percent(c.endpoints.availabilityPpm)} available</td><td>{ms(c.endpoints.latencyP50Ms)}</td><td>{ms(c.endpoints.latencyP95Ms)}</td>
            </tr>
          </tbody>
        </table>
      ) : null}
      <Methodology m={p.methodology} path="performance" />
    </div>
  )
}

const FindingList = ({ findings }: { readonly findings: ReadonlyArray<AgentFinding> }) =>
  findings.length === 0 ? <p class="muted">No finding.</p> : (
    <ul class="findings">
      {findings.map((f) => (
        <li class={`severity-${String(f.severity).toLowerCase()}`}>
          <strong>{f.severity}</strong> {f.kind} <span class="muted">(rule {f.ruleId}, at <code>{f.evidence.pointer}</code>)</span>
        </li>
      ))}
    </ul>
  )

/** Whether a finding's `subject` names the runtime tool (its stable name, or the name after the connection's slug). */
const names = (tool: Schemas["RuntimeTool"], subject: string) =>
  tool.stableName === subject || tool.stableName.slice(tool.stableName.indexOf(".") + 1) === subject

/**
 * The agent's tools, each with its findings. Everyone sees the tools its findings name; a member of
 * a workspace operating the agent sees every runtime tool (Runtime_ListRuntimeTools).
 */
const Tools = ({ id, findings }: { readonly id: string; readonly findings: Load<ReadonlyArray<AgentFinding>> }) => {
  const [tools, setTools] = useState<ReadonlyArray<Schemas["RuntimeTool"]> | undefined>(undefined)
  useEffect(() => {
    let live = true
    setTools(undefined)
    if (storedSession() === undefined) return
    // not a member, or no runtime: the public view (the tools the findings name) stays
    api.GET("/api/v1/agents/{entityPublicId}/tools", { params: { path: { entityPublicId: id } } })
      .then((r) => live && r.data !== undefined && setTools(r.data.data), () => undefined)
    return () => void (live = false)
  }, [id])
  if (findings.state === "loading") return <p class="muted">Loading findings…</p>
  if (findings.state === "error") return <p class="error">{findings.message}</p>
  const all = findings.value
  if (tools !== undefined && tools.length > 0) {
    const current = tools.filter((t) => t.state !== "SUPERSEDED")
    const unmatched = all.filter((f) => !current.some((t) => names(t, f.subject)))
    return (
      <div>
        <ul class="tools">
          {current.map((t) => (
            <li>
              <strong><code>{t.stableName}</code></strong> v{t.version} <span class="muted">({t.riskClass}{t.available ? "" : ", unavailable"})</span>
              <p>{t.description}</p>
              <FindingList findings={all.filter((f) => names(t, f.subject))} />
            </li>
          ))}
        </ul>
        {unmatched.length > 0 ? <><h3>Other findings</h3><ToolFindings findings={unmatched} /></> : null}
      </div>
    )
  }
  if (all.length === 0) return <p>No tool-safety finding.</p>
  return <ToolFindings findings={all} />
}

/** Findings grouped by their subject (a tool's name, or an endpoint). */
const ToolFindings = ({ findings }: { readonly findings: ReadonlyArray<AgentFinding> }) => {
  const subjects = [...new Set(findings.map((f) => f.subject))]
  return (
    <ul class="tools">
      {subjects.map((subject) => (
        <li><strong><code>{subject}</code></strong><FindingList findings={findings.filter((f) => f.subject === subject)} /></li>
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

/**
 * A price: integer units (a decimal string) of the asset, on its network (off-chain when none).
 * The API names the asset by its public id only, without its symbol or decimals, so the units stay
 * raw; the network by its display name when it is one of the configured networks.
 */
const priceText = (price: Schemas["ServiceOfferPrice"], networks: ReadonlyMap<string, string>) =>
  `${price.units} units of asset ${price.assetPublicId.slice(0, 8)}… ${
    price.networkPublicId === null ? "off-chain" : `on ${networks.get(price.networkPublicId) ?? `network ${price.networkPublicId.slice(0, 8)}…`}`
  }${price.x402ResourceTemplate !== null ? " (x402)" : ""}`

const Offers = ({ offers, networks }: {
  readonly offers: Load<ReadonlyArray<Schemas["ServiceOffer"]>>
  readonly networks: ReadonlyMap<string, string>
}) => {
  if (offers.state === "loading") return <p class="muted">Loading offers…</p>
  if (offers.state === "error") return <p class="error">{offers.message}</p>
  if (offers.value.length === 0) return <p>No published offer.</p>
  return (
    <ul class="offers">
      {offers.value.map((o) => (
        <li class="offer">
          <strong>{o.title}</strong> <span class="muted">({o.pricingModel})</span>
          <p>{o.description}</p>
          {o.prices.length === 0 ? <p class="muted">No price in effect.</p> : (
            <ul class="prices">{o.prices.map((p) => <li title={`asset ${p.assetPublicId}`}>{priceText(p, networks)}</li>)}</ul>
          )}
          <a class="buy" href={`/offers/${o.id}/buy`} data-route aria-label={`Buy ${o.title}`}>Buy</a>
        </li>
      ))}
    </ul>
  )
}

const Wallets = ({ wallets }: { readonly wallets: Load<ReadonlyArray<Schemas["AgentWallet"]>> }) => {
  if (wallets.state === "loading") return <p class="muted">Loading wallets…</p>
  if (wallets.state === "error") return <p class="error">{wallets.message}</p>
  if (wallets.value.length === 0) return <p>No proven wallet.</p>
  return (
    <table class="wallets">
      <caption>Wallets with a proven relation to the agent</caption>
      <thead><tr><th scope="col">Relation</th><th scope="col">Network</th><th scope="col">Address</th><th scope="col">Proof</th></tr></thead>
      <tbody>
        {wallets.value.map((w) => (
          <tr>
            <td>{w.relation}</td>
            <td>{w.network.displayName}</td>
            <td><code class="address">{w.address}</code></td>
            <td>{w.proof.kind}, <time dateTime={w.proof.verifiedAt}>{new Date(w.proof.verifiedAt).toLocaleDateString()}</time></td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** `YYYY-MM-DD` of the UTC day `days` before the instant `iso`. */
const dayBefore = (iso: string, days: number) => new Date(Date.parse(iso) - days * 86_400_000).toISOString().slice(0, 10)

/** The agent's last 30 UTC days (to the server's today) as a chart of its runs, with the other figures in its table. */
const Stats = ({ id, today }: { readonly id: string; readonly today: string }) => {
  const stats = useRead(() =>
    api.GET("/api/v1/stats/agents/{entityPublicId}/daily", {
      params: { path: { entityPublicId: id }, query: { from: dayBefore(today, 29), to: dayBefore(today, 0) } }
    }), `${id}/${today.slice(0, 10)}`)
  if (stats.state === "loading") return <p class="muted">Loading statistics…</p>
  if (stats.state === "error") return <p class="error">{stats.message}</p>
  const days = stats.value
  const n = (s: string) => Number(s)
  const rows = days.map((d) => {
    const started = n(d.runs.started)
    const succeeded = n(d.runs.succeeded)
    const failed = n(d.runs.failed)
    return { label: d.date, values: [succeeded, failed, Math.max(0, started - succeeded - failed)] }
  })
  const total = (i: number) => rows.reduce((a, r) => a + r.values[i]!, 0)
  const busiest = rows.reduce((best, r) => r.values.reduce((a, b) => a + b, 0) > best.values.reduce((a, b) => a + b, 0) ? r : best, rows[0]!)
  const runs = total(0) + total(1) + total(2)
  const description = runs === 0
    ? `No run started from ${days[0]?.date} to ${days.at(-1)?.date}.`
    : `${runs} run${runs === 1 ? "" : "s"} started from ${days[0]?.date} to ${days.at(-1)?.date}: ${total(0)} succeeded, ${total(1)} failed, ${total(2)} other; the busiest day was ${busiest.label}.`
  return (
    <BarChart
      id="daily-runs"
      title="Runs per day, last 30 days (UTC)"
      description={description}
      series={[{ name: "Succeeded", className: "s-ok" }, { name: "Failed", className: "s-failed" }, { name: "Other", className: "s-other" }]}
      rows={rows}
      extra={[
        { name: "Feedback", values: days.map((d) => d.feedback.created) },
        { name: "Stars", values: days.map((d) => d.stars) },
        { name: "Probes ok", values: days.map((d) => `${d.endpointProbes.ok} / ${d.endpointProbes.total}`) },
        { name: "Orders paid", values: days.map((d) => d.orders.paid) }
      ]}
    />
  )
}

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

/** The networks' display names by public id (Networks_ListNetworks), empty until read. */
const useNetworks = (): ReadonlyMap<string, string> => {
  const [networks, setNetworks] = useState<ReadonlyMap<string, string>>(new Map())
  useEffect(() => {
    let live = true
    api.GET("/api/v1/networks").then(
      (r) => live && r.data !== undefined && setNetworks(new Map(r.data.data.map((n) => [n.publicId, n.displayName]))),
      () => undefined
    )
    return () => void (live = false)
  }, [])
  return networks
}

export const Agent = ({ id }: { readonly id: string }) => {
  const path = { params: { path: { entityPublicId: id } } }
  const profile = useRead(() => api.GET("/api/v1/agents/{entityPublicId}", path), id)
  const trust = useRead(() => api.GET("/api/v1/agents/{entityPublicId}/trust", path), id)
  const rank = useRead(() => api.GET("/api/v1/agents/{entityPublicId}/rank", path), id)
  const performance = useRead(() => api.GET("/api/v1/agents/{entityPublicId}/performance", path), id)
  const findings = useRead(() => api.GET("/api/v1/agents/{entityPublicId}/findings", path), id)
  const offers = useRead(() => api.GET("/api/v1/agents/{agentId}/offers", { params: { path: { agentId: id } } }), id)
  const wallets = useRead(() => api.GET("/api/v1/agents/{entityPublicId}/wallets", path), id)
  const activity = useRead(() => api.GET("/api/v1/agents/{entityPublicId}/activity", path), id)
  const networks = useNetworks()

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
      <section aria-labelledby="rank"><h2 id="rank">Rank and performance</h2><Rank rank={rank} /><Performance performance={performance} /></section>
      <section aria-labelledby="stats"><h2 id="stats">Daily statistics</h2><Stats id={agent.publicId} today={profile.at} /></section>
      <section aria-labelledby="connect"><h2 id="connect">Connect</h2><Connect agent={agent} /></section>
      {agent.skills.length > 0 ? (
        <section aria-labelledby="skills">
          <h2 id="skills">Skills</h2>
          <ul>{agent.skills.map((s) => <li><strong>{s.name}</strong>: {s.description}</li>)}</ul>
        </section>
      ) : null}
      <section aria-labelledby="findings"><h2 id="findings">Tools and their safety</h2><Tools id={agent.publicId} findings={findings} /></section>
      <section aria-labelledby="offers"><h2 id="offers">Offers</h2><Offers offers={offers} networks={networks} /></section>
      <section aria-labelledby="wallets"><h2 id="wallets">Wallets</h2><Wallets wallets={wallets} /></section>
      <section aria-labelledby="activity"><h2 id="activity">Recent activity</h2><Activity activity={activity} /></section>
    </article>
  )
}
