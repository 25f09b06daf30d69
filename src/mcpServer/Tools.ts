/**
 * The tools of the directory's MCP server: each is one public read of the
 * REST contract, with the same Schemas, service method and policy:
 *
 * | tool | operation | input |
 * |---|---|---|
 * | `search_agents` | Agents_ListAgents | its query (filters, `q`, `sort`, `limit`, `cursor`) |
 * | `get_agent` | Agents_GetAgent | its path (`entityPublicId`) |
 * | `get_agent_trust` | Trust_GetAgentTrust | its path (`entityPublicId`) |
 * | `resolve_agent_identities` | Agents_ResolveAgentIdentities | its body (`locators`) |
 * | `get_agent_activity` | Agents_GetPublicAgentActivity | its path and query |
 * | `list_protocols` | Protocols_GetProtocolCatalog | none |
 * | `list_agent_offers` | Services_ListAgentOffers | its path (`agentId`) and query (`limit`, `cursor`) |
 * | `search_jobs` | Jobs_ListJobs | its query (filters, `q`, `sort`, `limit`, `cursor`) |
 * | `get_job` | Jobs_GetJob | its path (`jobId`) |
 *
 * `inputSchema` is the JSON Schema of the operation's path, query or body schema (query
 * integers and lists as the contract publishes them: JSON integers and arrays);
 * arguments are decoded by those same schemas (query values as their query-string text), so
 * a tool accepts exactly what the REST operation accepts, strictly (unknown arguments are
 * refused). `outputSchema` is the JSON Schema of the operation's success body (the envelope
 * `{ data, meta }` or `{ data, nextCursor, meta }`), and `structuredContent` is that body,
 * encoded as REST sends it.
 */
import type { HttpApiEndpoint } from "@effect/platform"
import { Context, Effect, Option, ParseResult, Schema } from "effect"
import type { AgentListItem, AgentProfile } from "../../schema/agents.js"
import type { ActivityItem } from "../../schema/analytics.js"
import { InvalidRequest } from "../../schema/errors.js"
import type { Resolution } from "../../schema/identity.js"
import type { InvalidParam, Problem } from "../../schema/problem.js"
import type { ProtocolCatalogItem } from "../../schema/protocols.js"
import { Agents, AgentsApi } from "../agents/index.js"
import { type OperationPolicy, Policy } from "../api/operation.js"
import type { Principal } from "../api/security.js"
import { Envelope } from "../http/Envelope.js"
import { principalScope } from "../http/group.js"
import { issueDetail } from "../http/RequestMiddleware.js"
import { Resolver } from "../identity/Resolver.js"
import { ProtocolCatalogCache, ProtocolsApi } from "../protocols/index.js"
import { Reputation, ReputationApi } from "../trust/index.js"
import { type ServiceOffer, Services, ServicesApi } from "../services/index.js"
import { type Job, JobBoard, JobBoardApi } from "../jobs/index.js"
import type { AgentTrust } from "../../schema/reputation.js"
import { type ObjectJsonSchema, objectJsonSchema } from "./JsonSchema.js"

/** The services the tools call (the REST handlers' own). */
export type ToolServices = Agents | Reputation | Resolver | ProtocolCatalogCache | Services | JobBoard | Envelope

/** What a tool call answers: the operation's success body, encoded, and a short text for a model. */
export interface ToolResult {
  readonly structured: Record<string, unknown>
  readonly text: string
}

/** One tool of the directory's MCP server. */
export interface DirectoryTool {
  readonly name: string
  readonly title: string
  readonly description: string
  /** The REST operation's policy: its `x-required-scopes` and `x-rate-cost` apply to the tool. */
  readonly policy: OperationPolicy
  readonly inputSchema: ObjectJsonSchema
  readonly outputSchema: ObjectJsonSchema
  /**
   * Decodes `args` with the operation's request schemas (400 `invalid-request` with `errors`
   * naming each argument and rule, never its value), calls the service as the REST handler
   * does and encodes its answer with the operation's success schema. Fails with the
   * operation's problems (e.g. `AgentNotFound`, `InvalidCursor`).
   */
  readonly call: (args: unknown, principal: Principal) => Effect.Effect<ToolResult, Problem, ToolServices>
}

type AnyEndpoint = HttpApiEndpoint.HttpApiEndpoint.AnyWithProps

/** The operation policy `operation()` stamped on `endpoint`. */
const policyOf = (endpoint: AnyEndpoint): OperationPolicy =>
  Option.getOrThrowWith(Context.getOption(endpoint.annotations, Policy), () => new Error(`${endpoint.name} is not an operation`))

/** Where an argument goes in the REST request. */
type Part = "path" | "query" | "body"

const partsOf = (endpoint: AnyEndpoint): ReadonlyArray<readonly [Part, Schema.Schema.All]> => [
  ...Option.toArray(endpoint.pathSchema).map((s) => ["path", s] as const),
  ...Option.toArray(endpoint.urlParamsSchema).map((s) => ["query", s] as const),
  ...Option.toArray(endpoint.payloadSchema).map((s) => ["body", s] as const)
]

const fieldNames = (schema: Schema.Schema.All): ReadonlyArray<string> => {
  const ast = Schema.encodedSchema(schema as Schema.Schema<unknown, unknown>).ast
  return ast._tag === "TypeLiteral" ? ast.propertySignatures.map((p) => String(p.name)) : []
}

/** A JSON argument as the query string or path carries it: numbers and booleans as their text. */
const wireText = (value: unknown): unknown =>
  typeof value === "number" || typeof value === "boolean"
    ? String(value)
    : Array.isArray(value)
    ? value.map(wireText)
    : value

const escapePointer = (key: PropertyKey) => String(key).replace(/~/g, "~0").replace(/\//g, "~1")

/** The 400 of arguments that break the operation's schema (as the REST request middleware words it). */
const invalidArguments = (where: Part, error: ParseResult.ParseError): InvalidRequest => {
  const errors: Array<InvalidParam> = []
  for (const issue of ParseResult.ArrayFormatter.formatErrorSync(error)) {
    const entry: InvalidParam = {
      in: where,
      pointer: issue.path.length === 0 ? "" : "/" + issue.path.map(escapePointer).join("/"),
      detail: issueDetail(issue)
    }
    if (errors.some((x) => x.pointer === entry.pointer)) continue
    errors.push(entry)
    if (errors.length === 20) break
  }
  return new InvalidRequest({
    detail: `The arguments are not valid: ${errors.map((x) => `${x.pointer || "(root)"} ${x.detail}`).join("; ")}`,
    errors
  })
}

/**
 * Decodes tool arguments with `endpoint`'s request schemas: a body operation's arguments are
 * its body; otherwise each argument goes to the path or query part naming it (others to the
 * query, where they are refused as not allowed). Returns the decoded parts.
 */
const decodeArguments = (endpoint: AnyEndpoint) => {
  const parts = partsOf(endpoint)
  const body = parts.find(([part]) => part === "body")
  const named = parts.filter(([part]) => part !== "body").map(([part, schema]) => [part, schema, fieldNames(schema)] as const)
  const decode = (part: Part, schema: Schema.Schema.All, value: unknown) =>
    Schema.decodeUnknown(schema as Schema.Schema<unknown, unknown>, { errors: "all", onExcessProperty: "error" })(value).pipe(
      Effect.mapError((e) => invalidArguments(part, e))
    )
  return (args: unknown): Effect.Effect<Partial<Record<Part, unknown>>, InvalidRequest> => {
    const given = args ?? {}
    if (body !== undefined) return Effect.map(decode("body", body[1], given), (payload) => ({ body: payload }))
    if (typeof given !== "object" || Array.isArray(given)) {
      return Effect.fail(new InvalidRequest({
        detail: "The arguments must be an object.",
        errors: [{ in: "query", pointer: "", detail: "must be an object" }]
      }))
    }
    const split: Record<string, Record<string, unknown>> = Object.fromEntries(named.map(([part]) => [part, {}]))
    const fallback = named.find(([part]) => part === "query")?.[0] ?? named[0]?.[0] ?? "query"
    split[fallback] ??= {}
    for (const [key, value] of Object.entries(given)) {
      const owner = named.find(([, , fields]) => fields.includes(key))?.[0] ?? fallback
      split[owner]![key] = wireText(value)
    }
    if (named.length === 0) {
      const extra = Object.keys(given)
      return extra.length === 0 ? Effect.succeed({}) : Effect.fail(new InvalidRequest({
        detail: `The arguments are not valid: ${extra.map((k) => `/${escapePointer(k)} is not allowed`).join("; ")}`,
        errors: extra.slice(0, 20).map((k) => ({ in: "query" as const, pointer: `/${escapePointer(k)}`, detail: "is not allowed" }))
      }))
    }
    return Effect.map(
      Effect.all(named.map(([part, schema]) => Effect.map(decode(part, schema, split[part]), (v) => [part, v] as const))),
      (entries) => Object.fromEntries(entries)
    )
  }
}

/** Builds a tool on `endpoint`: schemas and policy from the endpoint, `run` on the decoded parts. */
const tool = <A>(options: {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly endpoint: AnyEndpoint
  readonly run: (parts: Partial<Record<Part, any>>, principal: Principal) => Effect.Effect<A, Problem, ToolServices>
  readonly summary: (result: A) => string
}): DirectoryTool => {
  const { endpoint } = options
  const policy = policyOf(endpoint)
  const decode = decodeArguments(endpoint)
  const encode = Schema.encodeUnknown(endpoint.successSchema as Schema.Schema<unknown, unknown>)
  const operationLine = `REST: ${endpoint.method} ${endpoint.path} (${policy.operationId}, x-rate-cost ${policy.cost}).`
  return {
    name: options.name,
    title: options.title,
    description: `${options.description} ${operationLine}`,
    policy,
    inputSchema: objectJsonSchema(partsOf(endpoint).map(([, schema]) => schema)),
    outputSchema: objectJsonSchema([endpoint.successSchema]),
    call: (args, principal) =>
      decode(args).pipe(
        Effect.flatMap((parts) => options.run(parts, principal)),
        Effect.flatMap((result) =>
          encode(result).pipe(
            Effect.orDie,
            Effect.map((structured): ToolResult => ({
              structured: structured as Record<string, unknown>,
              text: options.summary(result)
            }))
          )
        )
      )
  }
}

const agentLine = (a: Pick<AgentListItem, "name" | "publicId" | "canonicalSlug" | "verificationState">) =>
  `- ${a.name} (${a.canonicalSlug}, ${a.verificationState}) entityPublicId ${a.publicId}`

const more = (nextCursor: string | null) =>
  nextCursor === null ? "This is the last page." : "More: call again with the same arguments and `cursor` = `nextCursor`."

const { getAgent, getPublicAgentActivity, listAgents, resolveAgentIdentities } = AgentsApi.endpoints as unknown as Record<
  string,
  AnyEndpoint
>
const { getProtocolCatalog } = ProtocolsApi.endpoints as unknown as Record<string, AnyEndpoint>
const { getAgentTrust } = ReputationApi.endpoints as unknown as Record<string, AnyEndpoint>
const { listAgentOffers } = ServicesApi.endpoints as unknown as Record<string, AnyEndpoint>
const { getJob, listJobs } = JobBoardApi.endpoints as unknown as Record<string, AnyEndpoint>

const jobLine = (j: Job) =>
  `- ${j.title} (${j.kind}${j.source.sourceCode === null ? "" : ` from ${j.source.sourceCode}`}) jobId ${j.id}: ` +
  (j.reward === null ? "no reward given" : `${j.reward.units} units of ${j.reward.asset} on ${j.reward.network}`) +
  (j.deadlineAt === null ? "" : `, deadline ${j.deadlineAt.toISOString()}`) +
  (j.skills.length === 0 ? "" : `, skills ${j.skills.join(", ")}`)

const offerLine = (o: ServiceOffer) =>
  `- ${o.title} (${o.slug}, ${o.pricingModel}) offerId ${o.id}: ` +
  (o.prices.length === 0
    ? "no current price"
    : o.prices.map((p) =>
      `${p.units} units of asset ${p.assetPublicId}${p.networkPublicId === null ? "" : ` on network ${p.networkPublicId}`}` +
      (p.x402ResourceTemplate === null ? "" : ` (x402: ${p.x402ResourceTemplate.replaceAll("{offerId}", o.id)})`)
    ).join("; "))

/** The tools, in the order `tools/list` shows them. */
export const DirectoryTools: ReadonlyArray<DirectoryTool> = [
  tool({
    name: "search_agents",
    title: "Search the agent directory",
    description: "Lists the directory's agents matching filters (`networks`, `protocols`, `verificationStates`), " +
      "a relevance search `q` (name, tagline, skills, description, protocols, MCP tools; typos tolerated) and a " +
      "`sort` (relevance, the default with `q`; rank, the default without; name; newest), `limit` per page; " +
      "pass `nextCursor` back as `cursor` (with the same filters) for the next page.",
    endpoint: listAgents!,
    run: ({ query }, principal) =>
      Agents.pipe(
        Effect.flatMap((agents) => agents.list(query, principalScope(principal))),
        Effect.flatMap((page) => Effect.flatMap(Envelope, (e) => e.page(page.rows, page.nextCursor)))
      ),
    summary: (page: { readonly data: ReadonlyArray<AgentListItem>; readonly nextCursor: string | null }) =>
      [`${page.data.length} agent(s):`, ...page.data.map(agentLine), more(page.nextCursor)].join("\n")
  }),
  tool({
    name: "get_agent",
    title: "An agent's profile",
    description: "The canonical profile of one agent by its entity UUID: identity, locators, networks, protocols, " +
      "trust summary, offers, provider, skills, interfaces and endpoints.",
    endpoint: getAgent!,
    run: ({ path }) =>
      Agents.pipe(
        Effect.flatMap((agents) => agents.profile(path.entityPublicId)),
        Effect.flatMap((profile) => Effect.flatMap(Envelope, (e) => e.data(profile)))
      ),
    summary: ({ data: a }: { readonly data: AgentProfile }) =>
      `${a.name}${a.tagline === null ? "" : ` — ${a.tagline}`} (${a.state}, ${a.verificationState}); ` +
      `${a.locators.length} locator(s), ${a.offers.length} offer(s); ${a.canonicalUrl}`
  }),
  tool({
    name: "get_agent_trust",
    title: "An agent's trust",
    description: "An agent's trust by its entity UUID: the projected value in ppm (weighted Bayesian average of its " +
      "PUBLISHED feedback, lowered by open tool-safety findings, raised by a card signature from its proven domain), " +
      "its Wilson 95% interval, coverage, freshness and components (ratings by category and authenticity, proofs " +
      "held, helpful votes, safety findings, card signature); methodology in docs/methodology.md.",
    endpoint: getAgentTrust!,
    run: ({ path }) =>
      Reputation.pipe(
        Effect.flatMap((reputation) => reputation.trust(path.entityPublicId)),
        Effect.flatMap((r) => Effect.flatMap(Envelope, (e) => e.data(r.data, r.freshness)))
      ),
    summary: ({ data: t }: { readonly data: AgentTrust }) =>
      t.trustPpm === null || t.confidence === null || t.components === null
        ? `Not projected yet (methodology ${t.methodology.key} v${t.methodology.version}).`
        : `Trust ${t.trustPpm} ppm (95% ${t.confidence.lowPpm}-${t.confidence.highPpm}) from ` +
          `${t.components.ratings.count} published rating(s); ${t.components.proofs.verificationState}, ` +
          `${t.components.proofs.provenIdentities} proven identit(ies); ${t.components.safety.openFindings} open finding(s) ` +
          `(-${t.components.safety.penaltyPpm} ppm); card signature ${t.components.signature.signatureState ?? "none"} ` +
          `(${t.components.signature.adjustmentPpm} ppm); projected ${t.freshness.projectedAt?.toISOString()}`
  }),
  tool({
    name: "resolve_agent_identities",
    title: "Resolve locators to agents",
    description: "Resolves up to 100 chain or registry locators (registry tokens, addresses, DIDs, registry keys) " +
      "to canonical agent identities: UNIQUE, AMBIGUOUS, CONFLICTED, NOT_FOUND or INVALID each, in request order.",
    endpoint: resolveAgentIdentities!,
    run: ({ body }) =>
      Resolver.pipe(
        Effect.flatMap((resolver) => resolver.resolveAll(body.locators)),
        Effect.flatMap((results) => Effect.flatMap(Envelope, (e) => e.data({ results })))
      ),
    summary: ({ data }: { readonly data: { readonly results: ReadonlyArray<Resolution> } }) =>
      data.results.map((r, i) =>
        `${i + 1}. ${r.status}${r.locator === null ? "" : ` ${r.locator}`}` +
        (r.candidates.length === 0 ? "" : ` → ${r.candidates.map((c) => c.entityId).join(", ")}`)
      ).join("\n")
  }),
  tool({
    name: "get_agent_activity",
    title: "An agent's public activity",
    description: "An agent's public activity items, newest first, filtered by `sourceKinds`, `networks` and " +
      "`activityKeys`; pass `nextCursor` back as `cursor` (with the same filters) for the next page.",
    endpoint: getPublicAgentActivity!,
    run: ({ path, query }) =>
      Agents.pipe(
        Effect.flatMap((agents) => agents.activity(path.entityPublicId, query)),
        Effect.flatMap((page) => Effect.flatMap(Envelope, (e) => e.page(page.rows, page.nextCursor)))
      ),
    summary: (page: { readonly data: ReadonlyArray<ActivityItem>; readonly nextCursor: string | null }) =>
      [
        `${page.data.length} activity item(s):`,
        ...page.data.map((item) => `- ${item.occurredAt.toISOString()} ${item.sourceKind} ${item.activityKey}`),
        more(page.nextCursor)
      ].join("\n")
  }),
  tool({
    name: "list_protocols",
    title: "Supported agent protocols",
    description: "The catalog of agent protocols the directory supports (keys usable as the `protocols` filter of " +
      "search_agents), with their status and features.",
    endpoint: getProtocolCatalog!,
    run: () =>
      ProtocolCatalogCache.pipe(
        Effect.flatMap((catalog) => catalog.current),
        Effect.flatMap(({ protocols }) => Effect.flatMap(Envelope, (e) => e.data({ protocols })))
      ),
    summary: ({ data }: { readonly data: { readonly protocols: ReadonlyArray<ProtocolCatalogItem> } }) =>
      `${data.protocols.length} protocol(s): ${data.protocols.map((p) => `${p.key} (${p.status})`).join(", ")}`
  }),
  tool({
    name: "list_agent_offers",
    title: "An agent's service offers",
    description: "The PUBLISHED service offers of an agent by its entity UUID (`agentId`), newest first, each with " +
      "its terms revision and the prices in effect now (units of an asset on a network; an X402 price names the " +
      "resource to pay at); pass `nextCursor` back as `cursor` for the next page.",
    endpoint: listAgentOffers!,
    run: ({ path, query }) =>
      Services.pipe(
        Effect.flatMap((services) => services.listForAgent(path.agentId, query)),
        Effect.flatMap((page) => Effect.flatMap(Envelope, (e) => e.page(page.rows, page.nextCursor)))
      ),
    summary: (page: { readonly data: ReadonlyArray<ServiceOffer>; readonly nextCursor: string | null }) =>
      [`${page.data.length} offer(s):`, ...page.data.map(offerLine), more(page.nextCursor)].join("\n")
  }),
  tool({
    name: "search_jobs",
    title: "Find work: bounties and partner jobs",
    description: "Lists the job board: OPEN bounties and partner jobs in one shape (kind, source, title, reward, " +
      "deadline, skills, protocols), filtered by `kinds`, `skills`, `protocols`, `network`, `asset`, `minReward`/" +
      "`maxReward` (units; need `asset`), `deadlineAfter`/`deadlineBefore` and a full-text `q`, in a `sort` " +
      "(relevance, the default with `q`; newest, the default without; deadline; reward, which needs `asset`), " +
      "`limit` per page; pass `nextCursor` back as `cursor` (with the same filters) for the next page.",
    endpoint: listJobs!,
    run: ({ query }, principal) =>
      JobBoard.pipe(
        Effect.flatMap((board) => board.list(query, principalScope(principal))),
        Effect.flatMap((page) => Effect.flatMap(Envelope, (e) => e.page(page.rows, page.nextCursor)))
      ),
    summary: (page: { readonly data: ReadonlyArray<Job>; readonly nextCursor: string | null }) =>
      [`${page.data.length} job(s):`, ...page.data.map(jobLine), more(page.nextCursor)].join("\n")
  }),
  tool({
    name: "get_job",
    title: "One job of the board",
    description: "One job by its `jobId` (a bounty's id, or a partner job's board id from search_jobs): its " +
      "source, description, reward, deadline, skills and protocols.",
    endpoint: getJob!,
    run: ({ path }) =>
      JobBoard.pipe(
        Effect.flatMap((board) => board.get(path.jobId)),
        Effect.flatMap((job) => Effect.flatMap(Envelope, (e) => e.data(job)))
      ),
    summary: ({ data: j }: { readonly data: Job }) =>
      [jobLine(j).slice(2), ...(j.source.url === null ? [] : [`Apply at ${j.source.url}`])].join("\n")
  })
]

/** The tool named `name`, if any. */
export const directoryTool = (name: string): DirectoryTool | undefined => DirectoryTools.find((t) => t.name === name)

/** The policy of Agents_GetAgent, which reading an `agent://` resource follows (scopes, cost). */
export const AgentResourcePolicy: OperationPolicy = policyOf(getAgent!)
