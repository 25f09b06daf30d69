/**
 * The directory (`/`): a search box (Agents_ListAgents `q`, typo-tolerant relevance search), facets
 * with counts (Agents_ListAgentFacets: protocols, networks, verification states), the sort, and
 * result cards (name, tagline, rank, verification, protocols, networks). The query lives in the URL,
 * so a search is a link; "More agents" follows the signed cursor.
 */
import { useEffect, useState } from "preact/hooks"
import { type AgentFacets, type AgentListItem, type AgentProfile, api, problemText } from "../api"
import { navigate, useLocation } from "../router"

type Sort = "relevance" | "rank" | "name" | "newest"
const Sorts: ReadonlyArray<readonly [Sort, string]> = [
  ["relevance", "Relevance"],
  ["rank", "Rank"],
  ["name", "Name"],
  ["newest", "Newest"]
]
const FacetGroups = [
  ["protocols", "Protocol"],
  ["networks", "Network"],
  ["verificationStates", "Verification"]
] as const
type FacetKey = (typeof FacetGroups)[number][0]
type VerificationState = AgentProfile["verificationState"]
const VerificationStates: ReadonlyArray<VerificationState> = ["UNVERIFIED", "PARTIAL", "VERIFIED", "EXPIRED", "REVOKED", "CONFLICTED"]
const isVerificationState = (value: string): value is VerificationState => (VerificationStates as ReadonlyArray<string>).includes(value)

interface Search {
  readonly q: string
  readonly sort: Sort | undefined
  readonly protocols: ReadonlyArray<string>
  readonly networks: ReadonlyArray<string>
  readonly verificationStates: ReadonlyArray<VerificationState>
}

const readSearch = (query: URLSearchParams): Search => {
  const sort = query.get("sort")
  return {
    q: query.get("q") ?? "",
    sort: Sorts.some(([s]) => s === sort) ? (sort as Sort) : undefined,
    protocols: query.getAll("protocols"),
    networks: query.getAll("networks"),
    verificationStates: query.getAll("verificationStates").filter(isVerificationState)
  }
}

const searchHref = (s: Search): string => {
  const query = new URLSearchParams()
  if (s.q !== "") query.set("q", s.q)
  if (s.sort !== undefined) query.set("sort", s.sort)
  for (const [key] of FacetGroups) for (const value of s[key]) query.append(key, value)
  const text = query.toString()
  return text === "" ? "/" : `/?${text}`
}

/** The filters of a list or facets call (empty ones left out). */
const filters = (s: Search) => ({
  ...(s.q !== "" ? { q: s.q } : {}),
  ...(s.protocols.length > 0 ? { protocols: [...s.protocols] } : {}),
  ...(s.networks.length > 0 ? { networks: [...s.networks] } : {}),
  ...(s.verificationStates.length > 0 ? { verificationStates: [...s.verificationStates] } : {})
})

export const Directory = () => {
  const { query } = useLocation()
  const search = readSearch(query)
  const key = searchHref(search)
  const [agents, setAgents] = useState<ReadonlyArray<AgentListItem> | undefined>(undefined)
  const [facets, setFacets] = useState<AgentFacets | undefined>(undefined)
  const [cursor, setCursor] = useState<string | null>(null)
  const [error, setError] = useState<string | undefined>(undefined)
  const [text, setText] = useState(search.q)

  useEffect(() => {
    let live = true
    setText(search.q)
    setError(undefined)
    setAgents(undefined)
    const list = api.GET("/api/v1/agents", {
      params: { query: { ...filters(search), ...(search.sort !== undefined ? { sort: search.sort } : {}), limit: 20 } }
    })
    const counts = api.GET("/api/v1/agents/facets", { params: { query: filters(search) } })
    void Promise.all([list, counts]).then(([l, c]) => {
      if (!live) return
      if (l.data === undefined) return setError(problemText(l.error, l.response))
      setAgents(l.data.data)
      setCursor(l.data.nextCursor)
      if (c.data !== undefined) setFacets(c.data.data)
    }, () => live && setError("The directory could not be reached."))
    return () => void (live = false)
  }, [key])

  const more = () => {
    if (cursor === null) return
    void api.GET("/api/v1/agents", { params: { query: { ...filters(search), cursor, limit: 20 } } }).then((r) => {
      if (r.data === undefined) return setError(problemText(r.error, r.response))
      setAgents([...(agents ?? []), ...r.data.data])
      setCursor(r.data.nextCursor)
    })
  }

  const toggle = (group: FacetKey, value: string) => {
    const values: ReadonlyArray<string> = search[group]
    const next = values.includes(value) ? values.filter((v) => v !== value) : [...values, value]
    navigate(searchHref({ ...search, [group]: group === "verificationStates" ? next.filter(isVerificationState) : next }))
  }

  return (
    <div class="directory">
      <h1 tabIndex={-1}>Find an agent</h1>
      <form
        role="search"
        class="search"
        onSubmit={(event) => {
          event.preventDefault()
          navigate(searchHref({ ...search, q: text.trim(), sort: undefined }))
        }}
      >
        <label for="q">Search agents</label>
        <input
          id="q"
          name="q"
          type="search"
          value={text}
          placeholder="weather forecast, code review, MCP…"
          onInput={(event) => setText(event.currentTarget.value)}
        />
        <button type="submit">Search</button>
        <label for="sort">Sort</label>
        <select
          id="sort"
          value={search.sort ?? (search.q !== "" ? "relevance" : "rank")}
          onChange={(event) => navigate(searchHref({ ...search, sort: event.currentTarget.value as Sort }))}
        >
          {Sorts.filter(([s]) => s !== "relevance" || search.q !== "").map(([value, label]) => <option value={value}>{label}</option>)}
        </select>
      </form>
      <div class="columns">
        <aside aria-label="Filters">
          {facets === undefined ? null : FacetGroups.map(([group, legend]) => (
            <fieldset>
              <legend>{legend}</legend>
              {facets[group].length === 0 ? <p class="muted">none</p> : facets[group].map((f) => (
                <label class="facet">
                  <input type="checkbox" checked={(search[group] as ReadonlyArray<string>).includes(f.value)} onChange={() => toggle(group, f.value)} />
                  {f.value} <span class="count">{f.count}</span>
                </label>
              ))}
            </fieldset>
          ))}
        </aside>
        <section aria-label="Results" aria-live="polite" aria-busy={agents === undefined && error === undefined}>
          {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
          {facets !== undefined ? <p class="muted">{facets.total} agents</p> : null}
          {agents === undefined ? <p class="muted">Loading…</p> : agents.length === 0 ? <p>No agent matches.</p> : (
            <ol class="results">
              {agents.map((agent) => (
                <li class="card">
                  <h2><a href={`/agents/${agent.publicId}`} data-route>{agent.name}</a></h2>
                  {agent.tagline !== null ? <p>{agent.tagline}</p> : null}
                  <dl class="facts">
                    <div><dt>Rank</dt><dd>{agent.rank ?? "unranked"}</dd></div>
                    <div><dt>Verification</dt><dd class={`state state-${agent.verificationState.toLowerCase()}`}>{agent.verificationState}</dd></div>
                    <div><dt>Protocols</dt><dd>{agent.protocols.join(", ") || "none"}</dd></div>
                    {agent.networks.length > 0 ? <div><dt>Networks</dt><dd>{agent.networks.join(", ")}</dd></div> : null}
                    <div><dt>Stars</dt><dd>{agent.starCount}</dd></div>
                  </dl>
                </li>
              ))}
            </ol>
          )}
          {cursor !== null && agents !== undefined ? <button type="button" onClick={more}>More agents</button> : null}
        </section>
      </div>
    </div>
  )
}
