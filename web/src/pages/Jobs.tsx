/**
 * The job board (`/jobs`): a text search (Jobs_ListJobs `q`), filters (source kind, skills,
 * protocols, the reward's network and asset, a reward range in the asset's integer units), the
 * sort, and one card per job with its source (a bounty, or a partner's feed); "More jobs" follows
 * the signed cursor. The query lives in the URL, so a search is a link.
 *
 * A job (`/jobs/{jobId}`, Jobs_GetJob): description, reward (integer units of the asset, as the
 * API gives them: it names the asset by symbol, not its decimals), deadline, skills and protocols;
 * a partner job links to the partner's page; a bounty shows its acceptance criteria to a signed-in
 * person (Jobs_GetBounty: an OPEN bounty is readable by anyone signed in).
 */
import { useEffect, useState } from "preact/hooks"
import { api, problemText, type Schemas } from "../api"
import { navigate, useLocation } from "../router"
import { storedSession } from "../session"

type Job = Schemas["Job"]
type Sort = "relevance" | "newest" | "deadline" | "reward"
type Kind = "BOUNTY" | "PARTNER"
const Kinds: ReadonlyArray<readonly [Kind, string]> = [["BOUNTY", "Bounties"], ["PARTNER", "Partner jobs"]]
const Sorts: ReadonlyArray<readonly [Sort, string]> = [["relevance", "Relevance"], ["newest", "Newest"], ["deadline", "Deadline"], ["reward", "Reward"]]

/** A job search as the URL holds it: text fields as typed, lists comma-separated in the form. */
interface JobSearch {
  readonly q: string
  readonly sort: Sort | undefined
  readonly kinds: ReadonlyArray<Kind>
  readonly skills: ReadonlyArray<string>
  readonly protocols: ReadonlyArray<string>
  readonly network: string
  readonly asset: string
  readonly minReward: string
  readonly maxReward: string
}

const readJobSearch = (query: URLSearchParams): JobSearch => {
  const sort = query.get("sort")
  return {
    q: query.get("q") ?? "",
    sort: Sorts.some(([s]) => s === sort) ? (sort as Sort) : undefined,
    kinds: query.getAll("kinds").filter((k): k is Kind => k === "BOUNTY" || k === "PARTNER"),
    skills: query.getAll("skills"),
    protocols: query.getAll("protocols"),
    network: query.get("network") ?? "",
    asset: query.get("asset") ?? "",
    minReward: query.get("minReward") ?? "",
    maxReward: query.get("maxReward") ?? ""
  }
}

const jobsHref = (s: JobSearch): string => {
  const query = new URLSearchParams()
  if (s.q !== "") query.set("q", s.q)
  if (s.sort !== undefined) query.set("sort", s.sort)
  for (const key of ["kinds", "skills", "protocols"] as const) for (const value of s[key]) query.append(key, value)
  for (const key of ["network", "asset", "minReward", "maxReward"] as const) if (s[key] !== "") query.set(key, s[key])
  const text = query.toString()
  return text === "" ? "/jobs" : `/jobs?${text}`
}

/** The query of a Jobs_ListJobs call (empty filters left out). */
const listQuery = (s: JobSearch) => ({
  ...(s.q !== "" ? { q: s.q } : {}),
  ...(s.sort !== undefined ? { sort: s.sort } : {}),
  ...(s.kinds.length > 0 ? { kinds: [...s.kinds] } : {}),
  ...(s.skills.length > 0 ? { skills: [...s.skills] } : {}),
  ...(s.protocols.length > 0 ? { protocols: [...s.protocols] } : {}),
  ...(s.network !== "" ? { network: s.network } : {}),
  ...(s.asset !== "" ? { asset: s.asset } : {}),
  ...(s.minReward !== "" ? { minReward: s.minReward } : {}),
  ...(s.maxReward !== "" ? { maxReward: s.maxReward } : {})
})

const words = (text: string): ReadonlyArray<string> => text.split(",").map((w) => w.trim().toLowerCase()).filter((w) => w !== "")

/** A reward as the API gives it: integer units (a decimal string) of the asset, on its network. */
export const rewardText = (reward: Job["reward"]): string =>
  reward === null ? "no reward stated" : `${reward.units} ${reward.asset} units on ${reward.network}`

const sourceText = (job: Job): string =>
  job.source.kind === "BOUNTY" ? "Bounty" : `Partner job${job.source.sourceCode !== null ? ` from ${job.source.sourceCode}` : ""}`

const day = (iso: string): string => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" })

const JobFacts = ({ job }: { readonly job: Job }) => (
  <dl class="facts">
    <div><dt>Source</dt><dd class="source">{sourceText(job)}</dd></div>
    <div><dt>Reward</dt><dd class="reward">{rewardText(job.reward)}</dd></div>
    <div><dt>Deadline</dt><dd>{job.deadlineAt !== null ? <time dateTime={job.deadlineAt}>{day(job.deadlineAt)}</time> : "none"}</dd></div>
    {job.skills.length > 0 ? <div><dt>Skills</dt><dd>{job.skills.join(", ")}</dd></div> : null}
    {job.protocols.length > 0 ? <div><dt>Protocols</dt><dd>{job.protocols.join(", ")}</dd></div> : null}
  </dl>
)

/** The job board (`/jobs`). */
export const Jobs = () => {
  const { query } = useLocation()
  const search = readJobSearch(query)
  const key = jobsHref(search)
  const [jobs, setJobs] = useState<ReadonlyArray<Job> | undefined>(undefined)
  const [cursor, setCursor] = useState<string | null>(null)
  const [error, setError] = useState<string | undefined>(undefined)
  const [form, setForm] = useState({ ...search, skills: search.skills.join(", "), protocols: search.protocols.join(", ") })

  useEffect(() => {
    let live = true
    document.title = "Jobs — Agent Directory"
    setForm({ ...search, skills: search.skills.join(", "), protocols: search.protocols.join(", ") })
    setError(undefined)
    setJobs(undefined)
    api.GET("/api/v1/jobs", { params: { query: { ...listQuery(search), limit: 20 } } }).then((r) => {
      if (!live) return
      if (r.data === undefined) return setError(problemText(r.error, r.response))
      setJobs(r.data.data)
      setCursor(r.data.nextCursor)
    }, () => live && setError("The directory could not be reached."))
    return () => void (live = false)
  }, [key])

  const more = () => {
    if (cursor === null) return
    void api.GET("/api/v1/jobs", { params: { query: { ...listQuery(search), cursor, limit: 20 } } }).then((r) => {
      if (r.data === undefined) return setError(problemText(r.error, r.response))
      setJobs([...(jobs ?? []), ...r.data.data])
      setCursor(r.data.nextCursor)
    })
  }

  const field = (name: "q" | "skills" | "protocols" | "network" | "asset" | "minReward" | "maxReward") => ({
    id: `job-${name}`,
    name,
    value: form[name],
    onInput: (event: { currentTarget: HTMLInputElement }) => setForm({ ...form, [name]: event.currentTarget.value })
  })
  const submit = (event: Event) => {
    event.preventDefault()
    navigate(jobsHref({
      ...form,
      q: form.q.trim(),
      skills: words(form.skills),
      protocols: words(form.protocols),
      network: form.network.trim(),
      asset: form.asset.trim(),
      minReward: form.minReward.trim(),
      maxReward: form.maxReward.trim()
    }))
  }
  const toggleKind = (kind: Kind) => {
    const kinds = search.kinds.includes(kind) ? search.kinds.filter((k) => k !== kind) : [...search.kinds, kind]
    navigate(jobsHref({ ...search, kinds }))
  }

  return (
    <div class="jobs">
      <h1 tabIndex={-1}>Find a job</h1>
      <form role="search" class="search" onSubmit={submit}>
        <label for="job-q">Search jobs</label>
        <input {...field("q")} type="search" placeholder="research, translation, MCP server…" />
        <button type="submit">Search</button>
        <label for="job-sort">Sort</label>
        <select
          id="job-sort"
          value={search.sort ?? (search.q !== "" ? "relevance" : "newest")}
          onChange={(event) => navigate(jobsHref({ ...search, sort: event.currentTarget.value as Sort }))}
        >
          {Sorts.filter(([s]) => (s !== "relevance" || search.q !== "") && (s !== "reward" || search.asset !== ""))
            .map(([value, label]) => <option value={value}>{label}</option>)}
        </select>
      </form>
      <div class="columns">
        <aside aria-label="Filters">
          <fieldset>
            <legend>Source</legend>
            {Kinds.map(([kind, label]) => (
              <label class="facet">
                <input type="checkbox" checked={search.kinds.includes(kind)} onChange={() => toggleKind(kind)} /> {label}
              </label>
            ))}
          </fieldset>
          <form class="filters" onSubmit={submit}>
            <fieldset>
              <legend>Filters</legend>
              <label for="job-skills">Skills (comma-separated)</label>
              <input {...field("skills")} />
              <label for="job-protocols">Protocols</label>
              <input {...field("protocols")} />
              <label for="job-network">Network (key or CAIP-2)</label>
              <input {...field("network")} />
              <label for="job-asset">Asset (symbol)</label>
              <input {...field("asset")} />
              <label for="job-minReward">Reward from (units)</label>
              <input {...field("minReward")} inputMode="numeric" pattern="[0-9]*" aria-describedby="reward-hint" />
              <label for="job-maxReward">Reward up to (units)</label>
              <input {...field("maxReward")} inputMode="numeric" pattern="[0-9]*" aria-describedby="reward-hint" />
              <p id="reward-hint" class="muted">A reward range needs the asset.</p>
              <button type="submit">Apply filters</button>
            </fieldset>
          </form>
        </aside>
        <section aria-label="Jobs" aria-live="polite" aria-busy={jobs === undefined && error === undefined}>
          {error !== undefined ? <p role="alert" class="error">{error}</p> : null}
          {jobs === undefined && error === undefined ? <p class="muted">Loading…</p> : jobs === undefined ? null : jobs.length === 0 ? <p>No job matches.</p> : (
            <ol class="results">
              {jobs.map((job) => (
                <li class="card job">
                  <h2><a href={`/jobs/${job.id}`} data-route>{job.title}</a></h2>
                  <JobFacts job={job} />
                </li>
              ))}
            </ol>
          )}
          {cursor !== null && jobs !== undefined ? <button type="button" onClick={more}>More jobs</button> : null}
        </section>
      </div>
    </div>
  )
}

/** A bounty's acceptance criteria, read for a signed-in person (Jobs_GetBounty); else a link to sign in. */
const AcceptanceCriteria = ({ bountyId, jobPath }: { readonly bountyId: string; readonly jobPath: string }) => {
  const signedIn = storedSession() !== undefined
  const [criteria, setCriteria] = useState<string | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  useEffect(() => {
    if (!signedIn) return
    let live = true
    api.GET("/api/v1/bounties/{bountyId}", { params: { path: { bountyId } } }).then((r) => {
      if (!live) return
      if (r.data === undefined) return setError(problemText(r.error, r.response))
      setCriteria(r.data.data.acceptanceCriteria)
    }, () => live && setError("The directory could not be reached."))
    return () => void (live = false)
  }, [bountyId, signedIn])
  if (!signedIn) return <p><a href={`/sign-in?next=${encodeURIComponent(jobPath)}`} data-route>Sign in</a> to read the acceptance criteria and claim it.</p>
  if (error !== undefined) return <p class="error">{error}</p>
  if (criteria === undefined) return <p class="muted">Loading…</p>
  return <p class="criteria">{criteria === "" ? "None stated." : criteria}</p>
}

/** A job (`/jobs/{jobId}`). */
export const JobPage = ({ id }: { readonly id: string }) => {
  const [job, setJob] = useState<Job | undefined>(undefined)
  const [error, setError] = useState<string | undefined>(undefined)
  useEffect(() => {
    let live = true
    setJob(undefined)
    setError(undefined)
    api.GET("/api/v1/jobs/{jobId}", { params: { path: { jobId: id } } }).then((r) => {
      if (!live) return
      if (r.data === undefined) return setError(problemText(r.error, r.response))
      setJob(r.data.data)
      document.title = `${r.data.data.title} — Agent Directory`
    }, () => live && setError("The directory could not be reached."))
    return () => void (live = false)
  }, [id])
  if (error !== undefined) return <div><h1 tabIndex={-1}>Job not found</h1><p role="alert" class="error">{error}</p><p><a href="/jobs" data-route>All jobs</a></p></div>
  if (job === undefined) return <p class="muted">Loading…</p>
  return (
    <article class="job-page">
      <p><a href="/jobs" data-route>All jobs</a></p>
      <h1 tabIndex={-1}>{job.title}</h1>
      <JobFacts job={job} />
      <p class="muted">Posted <time dateTime={job.postedAt}>{day(job.postedAt)}</time></p>
      <section aria-labelledby="job-description">
        <h2 id="job-description">Description</h2>
        <p class="description">{job.description !== null && job.description !== "" ? job.description : "No description."}</p>
      </section>
      {job.source.kind === "BOUNTY" && job.source.bountyId !== null ? (
        <section aria-labelledby="job-criteria">
          <h2 id="job-criteria">Acceptance criteria</h2>
          <AcceptanceCriteria bountyId={job.source.bountyId} jobPath={`/jobs/${job.id}`} />
        </section>
      ) : null}
      {job.source.url !== null ? (
        <p>
          <a class="source-link" href={job.source.url} rel="noreferrer noopener" target="_blank">
            Apply at {job.source.sourceCode ?? "the partner"} (opens a new tab)
          </a>
        </p>
      ) : null}
    </article>
  )
}
