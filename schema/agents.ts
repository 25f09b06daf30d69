/** Agents area (spec §2.10, §4.3, §9): favorite agents, the directory list and the agent profile. */
import { Schema } from "effect"
import { AgentProfileImportedFields } from "./agentImports.js"
import { CountString, DateTimeZ, HttpUrl, QueryInt, QueryList, rule, StrictStruct, Uuid, Version, WireString } from "./common.js"
import { LocatorKind, NetworkFamily } from "./identity.js"
import { ServiceOfferPrice } from "./services.js"
import { Data } from "./envelope.js"

/** Agent verification states (spec §3). */
export const VerificationState = Schema.Literal("UNVERIFIED", "PARTIAL", "VERIFIED", "EXPIRED", "REVOKED", "CONFLICTED")

/** Favorite agent item (spec §2.10). `rank` and `starCount` are digit strings. */
export const FavoriteAgent = Schema.Struct({
  publicId: Uuid,
  canonicalSlug: Schema.String.pipe(Schema.minLength(1)),
  name: Schema.String,
  rank: Schema.NullOr(CountString),
  tagline: Schema.NullOr(Schema.String),
  description: Schema.String,
  starCount: CountString,
  verificationState: VerificationState
}).annotations({ identifier: "FavoriteAgent" })
export type FavoriteAgent = typeof FavoriteAgent.Type

const FavoriteAgentEnvelope = Data(FavoriteAgent)

/**
 * Agents_FavoriteAgent's answer when the agent was added to the favorites now (its 201);
 * the plain `{data, meta}` envelope is the 200 of an agent that already was one. The first
 * success schema a handler's value satisfies gives its status, so the 201 needs a value of
 * its own: this wrapper, encoded as the envelope it holds.
 */
export class FavoriteAdded {
  constructor(readonly body: typeof FavoriteAgentEnvelope.Type) {}
}

/** Agents_FavoriteAgent's 201 body: `{data: FavoriteAgent, meta}` on the wire, a {@link FavoriteAdded} in code. */
export const FavoriteAgentAdded = Schema.transform(
  FavoriteAgentEnvelope,
  Schema.declare((u: unknown): u is FavoriteAdded => u instanceof FavoriteAdded),
  { strict: true, decode: (body) => new FavoriteAdded(body), encode: (added) => added.body }
)

/** Query of Agents_ListFavoriteAgents: limit 1-100 (default 25), cursor 1-2048 chars. */
export const ListFavoriteAgentsQuery = Schema.Struct({
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true })
})

/**
 * Sorts of Agents_ListAgents: `relevance` (the search blend of docs/methodology.md, best first; the default
 * when `q` is given; without `q` it orders as `rank`), `rank` (best first, unranked last; the default without
 * `q`), `name` (A-Z), `newest` (latest listed first).
 */
export const AgentSort = Schema.Literal("relevance", "rank", "name", "newest")
export type AgentSort = typeof AgentSort.Type

const KeyPattern = /^[a-z0-9][a-z0-9._-]{0,99}$/
/** A network or protocol key filter value: 1-100 lower-case letters, digits, `.`, `_`, `-`. */
const KeyFilter = Schema.String.pipe(Schema.pattern(KeyPattern))
const keyRule = "must be a key of 1-100 lower-case letters, digits, '.', '_' or '-'"
/** A network filter value: a network key, or a CAIP-2 chain id (`eip155:8453`; namespace `[-a-z0-9]{3,8}`, reference `[-_a-zA-Z0-9]{1,32}`). */
const NetworkFilter = Schema.String.pipe(Schema.pattern(/^(?:[a-z0-9][a-z0-9._-]{0,99}|[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32})$/))
const networkRule = "must be a network key (1-100 lower-case letters, digits, '.', '_' or '-') or a CAIP-2 chain id"

/**
 * The directory's filters (Agents_ListAgents, Agents_ListAgentFacets; spec §9, shaped like spec §4.3's
 * activity filters). Repeated filters: `networks` (network keys or CAIP-2 chain ids, max 20), `protocols`
 * (protocol catalog keys, max 20), `verificationStates` (max 6); values of one filter are alternatives,
 * filters combine with AND. `q`: 1-200 characters, the relevance search of docs/search.md (every word, or
 * its nearest spelling, in the agent's search document).
 */
export const AgentDirectoryFilters = Schema.Struct({
  networks: QueryList(NetworkFilter, 20, networkRule),
  protocols: QueryList(KeyFilter, 20, keyRule),
  verificationStates: QueryList(
    VerificationState,
    6,
    "must be one of UNVERIFIED, PARTIAL, VERIFIED, EXPIRED, REVOKED, CONFLICTED"
  ),
  q: Schema.optionalWith(WireString(1, 200), { exact: true })
})

/** Query of Agents_ListAgentFacets: the list's filters ({@link AgentDirectoryFilters}). */
export const ListAgentFacetsQuery = AgentDirectoryFilters
export type ListAgentFacetsQuery = typeof ListAgentFacetsQuery.Type

/**
 * Query of Agents_ListAgents: the directory's filters ({@link AgentDirectoryFilters}), `sort` (relevance,
 * rank, name or newest; absent: relevance with `q`, else rank), `limit` 1-100 (default 25), `cursor`
 * 1-2048 characters.
 */
export const ListAgentsQuery = Schema.Struct({
  ...AgentDirectoryFilters.fields,
  sort: Schema.optionalWith(AgentSort.annotations(rule("must be one of relevance, rank, name, newest")), { exact: true }),
  limit: QueryInt({ min: 1, max: 100, default: 25 }),
  cursor: Schema.optionalWith(WireString(1, 2048), { exact: true })
})
export type ListAgentsQuery = typeof ListAgentsQuery.Type

/** One value of a facet and how many agents matching the filters have it (a decimal string). */
export const AgentFacetCount = Schema.Struct({
  value: Schema.String,
  count: CountString
}).annotations({ identifier: "AgentFacetCount" })

/**
 * Agents_ListAgentFacets' answer: `total`, the listed agents matching the filters, and per facet the
 * counts of those agents by value, most frequent first (ties by value; values of no matching agent are
 * absent): `protocols` (catalog keys), `networks` (network keys), `verificationStates`, `skillTags` (lower
 * case, the 50 most frequent), `hasOffers` (`true`/`false`: a PUBLISHED service offer) and `sources`
 * (DIRECTORY, or the kinds of the agent's SUCCEEDED imports: A2A_AGENT_CARD, MCP_SERVER,
 * ERC8004_REGISTRATION). An agent with several values counts once under each.
 */
export const AgentFacets = Schema.Struct({
  total: CountString,
  protocols: Schema.Array(AgentFacetCount),
  networks: Schema.Array(AgentFacetCount),
  verificationStates: Schema.Array(AgentFacetCount),
  skillTags: Schema.Array(AgentFacetCount),
  hasOffers: Schema.Array(AgentFacetCount),
  sources: Schema.Array(AgentFacetCount)
}).annotations({ identifier: "AgentFacets" })
export type AgentFacets = typeof AgentFacets.Type

/** One agent of the directory list: the spec §2.10 fields plus its networks and protocols (keys, sorted). */
export const AgentListItem = Schema.Struct({
  ...FavoriteAgent.fields,
  networks: Schema.Array(Schema.String),
  protocols: Schema.Array(Schema.String)
}).annotations({ identifier: "AgentListItem" })
export type AgentListItem = typeof AgentListItem.Type

/** Path of Agents_GetAgent. */
export const AgentPath = Schema.Struct({ entityPublicId: Uuid })

/**
 * A registry-bound locator of an agent (spec §9): its own public UUID, the canonical
 * locator string and its parts (`network` the network key, `caip2` its CAIP-2 chain id; both
 * null for DIDs and off-chain keys), and `provenAt`, when control of it was proven by a
 * signature (Agents_ProveIdentity; null when it was bound otherwise). Observed
 * (funded/transferred) addresses are not identity and never appear here.
 */
export const AgentLocator = Schema.Struct({
  publicId: Uuid,
  locator: Schema.String,
  networkFamily: NetworkFamily,
  locatorKind: LocatorKind,
  network: Schema.NullOr(Schema.String),
  caip2: Schema.NullOr(Schema.String),
  registry: Schema.NullOr(Schema.String),
  nativeId: Schema.String,
  provenAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "AgentLocator" })
export type AgentLocator = typeof AgentLocator.Type

/**
 * Trust summary of an agent, from its PUBLISHED feedback only (withdrawn, hidden and
 * pending feedback never counts): `ratingPpm` the mean rating in parts per million
 * (null without feedback), the counts, and `latestFeedbackAt`, when the newest counted
 * feedback was written (its freshness; null without feedback).
 */
export const AgentTrustSummary = Schema.Struct({
  ratingPpm: Schema.NullOr(Schema.Int),
  feedbackCount: CountString,
  verifiedFeedbackCount: CountString,
  latestFeedbackAt: Schema.NullOr(DateTimeZ)
}).annotations({ identifier: "AgentTrustSummary" })

/** A PUBLISHED service offer of the agent with its price in effect now (null if none). */
export const AgentOffer = Schema.Struct({
  id: Uuid,
  serviceId: Uuid,
  title: Schema.String,
  slug: Schema.String,
  description: Schema.String,
  pricingModel: Schema.String,
  publishedAt: Schema.NullOr(DateTimeZ),
  currentPrice: Schema.NullOr(ServiceOfferPrice)
}).annotations({ identifier: "AgentOffer" })

/** Where an agent is in its life: ACTIVE (listed), or RETIRED (left the directory list for good; its profile stays). */
export const AgentState = Schema.Literal("ACTIVE", "RETIRED")
export type AgentState = typeof AgentState.Type

/** One link of an agent's profile: a label (1-100 characters) and an absolute http(s) URL (at most 2000). */
export const AgentLink = Schema.Struct({
  label: Schema.String,
  url: Schema.String
}).annotations({ identifier: "AgentLink" })
export type AgentLink = typeof AgentLink.Type

/** At most this many links per agent. */
export const MaxAgentLinks = 20

/**
 * The canonical agent profile (Agents_GetAgent, spec §9): identity (`entityId` = `publicId`,
 * canonical slug and URL), the spec §2.10 fields, networks and protocols, registry-bound
 * locators, trust summary and published offers; and the registration's own fields:
 * `version` (optimistic concurrency of Agents_UpdateAgent and Agents_RetireAgent),
 * `state` with `retiredAt`, and `links`.
 */
export const AgentProfile = Schema.Struct({
  entityId: Uuid,
  ...AgentListItem.fields,
  canonicalUrl: Schema.String,
  version: Version,
  state: AgentState,
  retiredAt: Schema.NullOr(DateTimeZ),
  links: Schema.Array(AgentLink),
  listedAt: Schema.NullOr(DateTimeZ),
  locators: Schema.Array(AgentLocator),
  trust: AgentTrustSummary,
  offers: Schema.Array(AgentOffer),
  // what imports of the agent's A2A Agent Card and ERC-8004 registration file added (schema/agentImports.ts)
  ...AgentProfileImportedFields
}).annotations({ identifier: "AgentProfile" })
export type AgentProfile = typeof AgentProfile.Type

const slugRule = "must be 3-64 characters of lower-case letters, digits and single hyphens, starting with a letter " +
  "and ending with a letter or digit"

/**
 * A canonical slug as a request field: 3-64 characters of `a-z`, `0-9` and single `-`,
 * starting with a letter and ending with a letter or digit (`atlas-research`). Unique
 * across agents (a taken one is 409 `slug-taken`).
 */
export const CanonicalSlug = Schema.String.pipe(
  Schema.minLength(3),
  Schema.maxLength(64),
  Schema.pattern(/^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/),
  Schema.annotations({ ...rule(slugRule), description: slugRule.replace(/^must be /, "") })
)

/** A display name: 1-160 characters, not only white space. */
const AgentName = WireString(1, 160).pipe(
  Schema.filter((s) => s.trim().length > 0),
  Schema.annotations(rule("must be a string of 1-160 characters, not only white space, without U+0000"))
)

/** One link in a request: `label` 1-100 characters, `url` an absolute http(s) URL of at most 2000. */
export const AgentLinkRequest = StrictStruct({
  label: WireString(1, 100),
  url: HttpUrl(2000)
}).annotations({ identifier: "AgentLinkRequest" })

// the message is the length rule's only (not `rule`, which would also hide an item's own error)
const Links = Schema.Array(AgentLinkRequest).pipe(
  Schema.maxItems(MaxAgentLinks, { message: () => `must be at most ${MaxAgentLinks} links` })
)

/** The editable fields of an agent, as requests carry them. */
const editable = {
  name: AgentName,
  canonicalSlug: CanonicalSlug,
  tagline: Schema.NullOr(WireString(1, 200)),
  description: WireString(0, 10000),
  links: Links
}

/**
 * Body of Agents_CreateAgent: the operating workspace (`workspaceId`), `name`,
 * `canonicalSlug`; optional `tagline` (1-200 or null, default null), `description`
 * (0-10000, default empty) and `links` (default none).
 */
export const CreateAgentRequest = StrictStruct({
  workspaceId: Uuid,
  name: editable.name,
  canonicalSlug: editable.canonicalSlug,
  tagline: Schema.optionalWith(editable.tagline, { default: () => null, exact: true }),
  description: Schema.optionalWith(editable.description, { default: () => "", exact: true }),
  links: Schema.optionalWith(editable.links, { default: () => [], exact: true })
}).annotations({ identifier: "CreateAgentRequest" })
export type CreateAgentRequest = typeof CreateAgentRequest.Type

/**
 * Body of Agents_UpdateAgent (merge-patch-like): `expectedVersion` and the fields to
 * change; an absent field stays as it is, `tagline: null` clears the tagline, `links`
 * replaces the whole list. At least one field besides `expectedVersion`.
 */
export const UpdateAgentRequest = StrictStruct({
  expectedVersion: Version,
  name: Schema.optionalWith(editable.name, { exact: true }),
  canonicalSlug: Schema.optionalWith(editable.canonicalSlug, { exact: true }),
  tagline: Schema.optionalWith(editable.tagline, { exact: true }),
  description: Schema.optionalWith(editable.description, { exact: true }),
  links: Schema.optionalWith(editable.links, { exact: true })
}).annotations({ identifier: "UpdateAgentRequest" })
export type UpdateAgentRequest = typeof UpdateAgentRequest.Type

/** Body of Agents_RetireAgent: the version the caller read. */
export const RetireAgentRequest = StrictStruct({ expectedVersion: Version }).annotations({ identifier: "RetireAgentRequest" })
export type RetireAgentRequest = typeof RetireAgentRequest.Type
